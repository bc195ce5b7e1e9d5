/**
 * Worker: the handover suite's clients. A spectator on the namespace and
 * the sharded counter's client (`examples/sharded_counter/client.ts`)
 * sending a steady stream of increments, each routed to its shard's owner.
 *
 * Options: `{ addresses, namespace, shards, rate }`. Commands:
 * - `{type:"reset"}` → `{type:"ok"}`: count afresh from now;
 * - `{type:"tally"}` → `{type:"tally", summary}`: the counts since the last
 *   reset (`TallySummary` of `examples/sharded_counter/tally.ts`).
 *
 * @module
 */
import { Spectator } from "../../packages/sdk/mod.ts";
import { CounterClient } from "../../examples/sharded_counter/client.ts";
import { steadyLoad } from "../../examples/sharded_counter/load.ts";
import { Tally } from "../../examples/sharded_counter/tally.ts";
import { emit, serveCommands, workerOptions } from "./_protocol.ts";

/** Options of the worker. */
export interface CounterLoadOptions {
  /** Service addresses. */
  readonly addresses: readonly string[];
  /** The namespace. */
  readonly namespace: string;
  /** Its shards. */
  readonly shards: number;
  /** Requests per second. */
  readonly rate: number;
}

const options = workerOptions<CounterLoadOptions>();
const spectator = await new Spectator({
  addresses: [...options.addresses],
  namespace: options.namespace,
  namespaceType: "fixed",
}).start({ timeoutMs: 30_000 });
const client = new CounterClient(spectator, { shardCount: options.shards });
const tally = new Tally();
void steadyLoad(client, {
  ratePerSecond: options.rate,
  signal: new AbortController().signal, // runs until the driver ends the process
  onResult: (result) => tally.add(result),
});

serveCommands((command) => {
  if (command.type === "reset") {
    tally.reset();
    emit({ type: "ok" });
  } else if (command.type === "tally") {
    emit({ type: "tally", summary: tally.summary() });
  }
});
emit({ type: "ready" });
