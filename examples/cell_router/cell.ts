// deno-lint-ignore-file no-console -- examples print what happens
/**
 * One cell: a small HTTP service that serves the customers (tenants) its
 * executor holds in the `cells` namespace (`mode: cells`), and publishes its
 * address as metadata so the router can forward to it. It keeps its
 * customers while Shard Manager is unreachable (the executor SDK's default,
 * static stability).
 *
 * ```sh
 * deno run -A examples/cell_router/cell.ts --service 127.0.0.1:7943 --name cell-a
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { Executor } from "../../packages/sdk/mod.ts";
import { clockTime, untilStopped } from "../_shared/cli.ts";

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    service: { type: "string", default: "127.0.0.1:7943" },
    namespace: { type: "string", default: "cells" },
    name: { type: "string", default: `cell-${Deno.pid}` },
  },
});
const name = flags.name;
const say = (message: string) => console.log(`${clockTime()} ${name.padEnd(7)} ${message}`);
const owned = new Set<string>();

const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
  const customer = request.headers.get("x-customer-id") ?? "";
  if (!owned.has(customer)) {
    return Response.json({ error: `${name} does not serve customer ${customer}` }, {
      status: 421,
    });
  }
  return Response.json({
    cell: name,
    customer,
    path: new URL(request.url).pathname,
  });
});
const address = `127.0.0.1:${server.addr.port}`;

let report: ReturnType<typeof setTimeout> | undefined;
const changed = () => {
  clearTimeout(report);
  report = setTimeout(() => {
    say(`serves customers [${[...owned].sort().join(" ")}]`);
  }, 200);
};
const executor = await new Executor({
  addresses: [flags.service],
  namespace: flags.namespace,
  executorId: name,
  metadata: { address },
  heartbeatIntervalMs: 300,
  drainTimeoutMs: 3_000,
  processor: (ctx) => {
    owned.add(ctx.shardKey);
    changed();
    return {
      stop: () => {
        owned.delete(ctx.shardKey);
        changed();
      },
    };
  },
}).start();
void (async () => {
  for await (const event of executor.events()) {
    if (event.type === "heartbeat-failed" && event.failures === 1) {
      say("Shard Manager unreachable: keeping my customers (static stability)");
    }
    if (event.type === "heartbeat-recovered") say("Shard Manager reachable again");
  }
})();
say(`listening on ${address} as executor ${executor.id}`);
await untilStopped();
say("draining (up to 3 s if Shard Manager is down)");
await executor.shutdown();
clearTimeout(report);
await server.shutdown();
Deno.exit(0);
