// deno-lint-ignore-file no-console -- examples print what happens
/**
 * One node of the sharded dataset: an executor whose processor
 * (`slice_holder.ts`) loads the slice of its shard into memory and keeps it
 * there until the shard moves away. Every start, load and stop is appended to the shared record file.
 *
 * ```sh
 * deno run -A examples/sharded_dataset/node.ts --service 127.0.0.1:7943 --record /tmp/slices.jsonl
 * ```
 *
 * Started by `main.ts`; run it by hand against your own service (namespace
 * `dataset`: `{ type: fixed, shardNum: 12 }`).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { Executor } from "../../packages/sdk/mod.ts";
import { clockTime, numberFlag, untilStopped } from "../_shared/cli.ts";
import { appendRecord } from "../_shared/records.ts";
import { SliceHolder } from "./slice_holder.ts";

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    service: { type: "string", default: "127.0.0.1:7943" },
    namespace: { type: "string", default: "dataset" },
    record: { type: "string" },
    name: { type: "string", default: `node-${Deno.pid}` },
    slices: { type: "string", default: "12" },
  },
});
if (!flags.record) throw new TypeError("--record FILE is required: the record all nodes share");
const record = flags.record, name = flags.name;
const slices = numberFlag("slices", flags.slices, 1);
const say = (message: string) => console.log(`${clockTime()} ${name.padEnd(7)} ${message}`);
const log = (kind: string, slice: number, extra: Record<string, unknown> = {}) =>
  appendRecord(record, { kind, slice, node: name, pid: Deno.pid, ...extra });

const holder = new SliceHolder(slices, {
  onStart: (slice, token) => {
    log("start", slice, { token });
    say(`slice ${slice}: loading (token ${token})`);
  },
  onLoaded: (slice, records, ms) => {
    log("loaded", slice, { records });
    say(`slice ${slice}: ${records} orders in memory (${ms} ms)`);
  },
  onStop: (slice, reason) => {
    log("stop", slice, { reason });
    say(`slice ${slice}: released (${reason})`);
  },
});
const executor = await new Executor({
  addresses: [flags.service],
  namespace: flags.namespace,
  executorId: name,
  heartbeatIntervalMs: 300,
  drainTimeoutMs: 3_000,
  processor: holder.processor,
}).start();
say(`started executor ${executor.id}`);
await untilStopped();
say("draining");
await executor.shutdown();
Deno.exit(0);
