// deno-lint-ignore-file no-console -- examples print what happens
/**
 * One node of per-entity processing: an executor in an ephemeral namespace
 * (one shard per entity) with a small HTTP endpoint, at the address it
 * publishes as metadata, that appends an event to its entity's inbox. Each
 * entity's processor handles its events one at a time, in arrival order.
 *
 * ```sh
 * deno run -A examples/per_entity/node.ts --service 127.0.0.1:7943 --namespace demo-ephemeral
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { Executor } from "../../packages/sdk/mod.ts";
import { clockTime, sleep, untilStopped } from "../_shared/cli.ts";
import { appendRecord } from "../_shared/records.ts";
import type { EntityEvent } from "./events.ts";
import { Inboxes } from "./inboxes.ts";

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    service: { type: "string", default: "127.0.0.1:7943" },
    namespace: { type: "string", default: "entities" },
    record: { type: "string" },
    name: { type: "string", default: `node-${Deno.pid}` },
  },
});
const name = flags.name, record = flags.record;
const say = (message: string) => console.log(`${clockTime()} ${name.padEnd(7)} ${message}`);
const inboxes = new Inboxes();
const ROUTE = new URLPattern({ pathname: "/entities/:entity/events" });

const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
  const match = ROUTE.exec(request.url);
  if (!match || request.method !== "POST") return new Response("not found", { status: 404 });
  const event = await request.json() as EntityEvent;
  const accepted = await inboxes.deliver(event, 5_000);
  return accepted
    ? new Response(null, { status: 202 })
    : new Response(`${name} does not own ${event.entity}`, { status: 421 });
});
const address = `127.0.0.1:${server.addr.port}`;

/** Handles one event: the work of the example is to record it. */
async function handle(event: EntityEvent, signal: AbortSignal): Promise<void> {
  await sleep(5 + Math.random() * 30, signal);
  if (signal.aborted) return;
  if (record) appendRecord(record, { kind: "processed", ...event, node: name });
  say(`${event.entity} #${event.seq} ${event.type}`);
}

const executor = await new Executor({
  addresses: [flags.service],
  namespace: flags.namespace,
  executorId: name,
  metadata: { address },
  heartbeatIntervalMs: 200,
  drainTimeoutMs: 3_000,
  processor: (ctx) => {
    const entity = ctx.shardKey;
    const reader = inboxes.open(entity).getReader();
    ctx.signal.addEventListener("abort", () => {
      inboxes.close(entity);
      void reader.cancel();
    }, { once: true });
    const running = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || ctx.signal.aborted) return;
        await handle(value, ctx.signal);
        if (value.last) {
          inboxes.close(entity);
          ctx.done(); // the entity is finished: the service deletes its shard
        }
      }
    })();
    return { stop: () => running };
  },
}).start();
say(`serving ${address} as executor ${executor.id}`);
await untilStopped();
say("draining");
await executor.shutdown();
await server.shutdown();
Deno.exit(0);
