// deno-lint-ignore-file no-console -- examples print what happens
/**
 * One node of the sharded counter: an HTTP server (`http.ts`) for the
 * counters of the shards this process owns, and an executor whose processor
 * (`counter_shards.ts`) loads each shard as it arrives. The node publishes
 * its HTTP address (and its zone) in the executor's metadata, where the
 * clients' spectators find it. SIGTERM drains it: the shards move away, then
 * it exits. With `--warm-handover on` the executor gets the shards' `prepare`
 * hook: a shard about to move here is warmed up while its old owner still
 * serves it (`off`, the default: every move is a cold start here).
 *
 * ```sh
 * deno run -A examples/sharded_counter/node.ts --service 127.0.0.1:7943 --load-ms 300 --warm-handover on
 * ```
 *
 * Started by `main.ts` (and by the `handover` benchmark, with `--events`:
 * one JSON line per event on stdout). Run it by hand against your own
 * service (namespace `counter`: `{ type: fixed, shardNum: 8 }`).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { Executor } from "../../packages/sdk/mod.ts";
import { clockTime, numberFlag, untilStopped } from "../_shared/cli.ts";
import { CounterShards } from "./counter_shards.ts";
import { serveCounter } from "./http.ts";
import { directorySnapshots, unsavedSnapshots } from "./snapshots.ts";

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    service: { type: "string", default: "127.0.0.1:7943" },
    namespace: { type: "string", default: "counter" },
    name: { type: "string", default: `node-${Deno.pid}` },
    zone: { type: "string", default: "a" },
    "load-ms": { type: "string", default: "300" },
    "heartbeat-ms": { type: "string", default: "1000" },
    data: { type: "string" },
    events: { type: "boolean", default: false },
    "warm-handover": { type: "string", default: "off" },
  },
});
const warm = flags["warm-handover"];
if (warm !== "on" && warm !== "off") {
  throw new RangeError(`--warm-handover must be on or off, got ${warm}`);
}
const name = flags.name;
const say = (message: string, event: Record<string, unknown>) => {
  if (flags.events) console.log(JSON.stringify({ ...event, node: name }));
  else console.log(`${clockTime()} ${name.padEnd(7)} ${message}`);
};

const shards = new CounterShards({
  loadMs: numberFlag("load-ms", flags["load-ms"], 0),
  snapshots: flags.data ? directorySnapshots(flags.data) : unsavedSnapshots,
  onPrepared: (shard, at, token) =>
    say(`shard ${shard}: prepared (token ${token})`, { event: "prepared", shard, at }),
  onServing: (shard, at, token) =>
    say(`shard ${shard}: serving (token ${token})`, { event: "serving", shard, at }),
  onUnserving: (shard, at, reason) =>
    say(`shard ${shard}: no longer served (${reason})`, { event: "unserving", shard, at, reason }),
});
const server = serveCounter(shards);
const address = `127.0.0.1:${server.addr.port}`;
const executor = await new Executor({
  addresses: flags.service.split(","),
  namespace: flags.namespace,
  executorId: name,
  metadata: { address, zone: flags.zone },
  heartbeatIntervalMs: numberFlag("heartbeat-ms", flags["heartbeat-ms"], 10),
  processor: shards.processor,
  ...(warm === "on" ? { prepare: shards.prepare } : {}),
}).start({ timeoutMs: 30_000 });
say(`executor ${executor.id} in zone ${flags.zone}, serving HTTP on ${address}`, {
  event: "ready",
  address,
  at: Date.now(),
});
const why = await untilStopped();
say(`${why}: draining`, { event: "draining", at: Date.now() });
await executor.shutdown();
await server.shutdown();
say("stopped", { event: "stopped", at: Date.now() });
Deno.exit(0);
