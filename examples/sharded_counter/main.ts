// deno-lint-ignore-file no-console -- examples print what happens
/**
 * Sharded counter: counters split over shards, each shard served over HTTP
 * by the node that owns it after a warm-up (its load). Clients route every
 * request through the spectator; a rolling replacement of a node shows what
 * a move costs them today (failed, retried and cold requests).
 *
 * ```sh
 * deno run -A examples/sharded_counter/main.ts --nodes 3 --shards 8
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { Spectator } from "../../packages/sdk/mod.ts";
import { type Child, spawnChild } from "../_shared/child.ts";
import { clockTime, numberFlag, sleep, untilStopped } from "../_shared/cli.ts";
import { startService } from "../_shared/service.ts";
import { CounterClient } from "./client.ts";
import { steadyLoad } from "./load.ts";
import { Tally, type TallySummary } from "./tally.ts";

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    nodes: { type: "string", default: "3" },
    shards: { type: "string", default: "8" },
    "load-ms": { type: "string", default: "300" },
    rate: { type: "string", default: "50" },
    ownership: { type: "string", default: "available" },
    "replace-after": { type: "string", default: "6" },
    duration: { type: "string", default: "20" },
    "warm-handover": { type: "string", default: "on" },
    help: { type: "boolean" },
  },
});
if (flags.help) {
  console.log(`Usage: deno run -A examples/sharded_counter/main.ts [--nodes 3] [--shards 8]
       [--load-ms 300] [--rate 50] [--ownership available|exclusive]
       [--replace-after 6] [--duration 20] [--warm-handover on|off]

  --load-ms MS       how long a shard takes to load on its new owner
  --rate N           requests per second from the client
  --replace-after S  replace every node, one after the other, from S seconds on (0: never)
  --duration S       stop after S seconds (0: on Ctrl-C)
  --warm-handover    on: nodes prepare (warm up) a shard before it moves to them; off: cold moves`);
  Deno.exit(0);
}
const nodeCount = numberFlag("nodes", flags.nodes, 1);
const shardCount = numberFlag("shards", flags.shards, 1);
const loadMs = numberFlag("load-ms", flags["load-ms"], 0);
const rate = numberFlag("rate", flags.rate, 1);
const replaceAfter = numberFlag("replace-after", flags["replace-after"], 0);
const duration = numberFlag("duration", flags.duration, 0);
const warm = flags["warm-handover"];
if (warm !== "on" && warm !== "off") {
  throw new RangeError(`--warm-handover must be on or off, got ${warm}`);
}
const ownership = flags.ownership;
if (ownership !== "available" && ownership !== "exclusive") {
  throw new RangeError(`--ownership must be available or exclusive, got ${ownership}`);
}
const say = (message: string) => console.log(`${clockTime()} ${"main".padEnd(7)} ${message}`);
const line = (s: TallySummary) =>
  `${s.requests} requests: ok ${s.ok}, cold ${s.cold}, failed ${s.failed} ` +
  `(retries ${s.retries}, never served ${s.lost}), p99 ${Math.round(s.p99Ms)} ms`;

const data = await Deno.makeTempDir({ prefix: "sharded-counter-" });
const service = await startService({
  namespaces: [{ name: "counter", type: "fixed", shardNum: shardCount, ownership }],
  onError: (text) => say(`service: ${text}`),
});
say(`Shard Manager listens on ${service.address} (embedded store, ${ownership} namespace)`);

const nodes = new Map<string, Child>();
let started = 0;
/** Starts a node; resolves once its executor is registered. */
const startNode = async (zone: string) => {
  const name = `node-${++started}`;
  const ready = Promise.withResolvers<void>();
  const child = spawnChild(new URL("./node.ts", import.meta.url), [
    ...["--service", service.address, "--name", name, "--zone", zone],
    ...["--load-ms", String(loadMs), "--data", data, "--warm-handover", warm],
  ], {
    name,
    onLine: (text) => {
      console.log(text);
      if (text.includes(" serving HTTP on ")) ready.resolve();
    },
  });
  nodes.set(name, child);
  child.exited.then(() => ready.reject(new Error(`${name} exited before it was ready`)));
  await ready.promise;
  return name;
};
const zoneOf = (i: number) => String.fromCharCode(97 + (i % 3));
await Promise.all(Array.from({ length: nodeCount }, (_, i) => startNode(zoneOf(i))));

await using spectator = await new Spectator({
  addresses: service.address,
  namespace: "counter",
  namespaceType: "fixed",
}).start({ timeoutMs: 30_000 });
// Wait for the first placement and its balancing (after the service's settling window).
const balanced = () => {
  const counts = [...spectator.placement?.executors.values() ?? []].map((e) => e.shards.length);
  return spectator.placement?.owners.size === shardCount && counts.length === nodeCount &&
    Math.max(...counts) - Math.min(...counts) <= 1;
};
while (!balanced()) await sleep(100);
await sleep(loadMs + 500);
const client = new CounterClient(spectator, { shardCount });
const stop = new AbortController();
const total = new Tally(), window = new Tally();
const load = steadyLoad(client, {
  ratePerSecond: rate,
  signal: stop.signal,
  onResult: (result) => {
    total.add(result);
    window.add(result);
  },
});
say(`every shard has an owner, balanced over the nodes; sending ${rate} requests/s`);
const ticker = setInterval(() => {
  say(line(window.summary()));
  window.reset();
}, 2_000);

if (replaceAfter > 0) {
  void (async () => {
    await sleep(replaceAfter * 1000, stop.signal);
    for (const [i, old] of [...nodes.keys()].entries()) {
      if (stop.signal.aborted) return;
      const fresh = await startNode(zoneOf(i));
      say(`rolling replacement: ${fresh} is up; SIGTERM ${old}`);
      const sent = Date.now();
      await nodes.get(old)!.stop();
      nodes.delete(old);
      say(`${old} exited ${Date.now() - sent} ms after its SIGTERM`);
      await sleep(3_000, stop.signal);
    }
  })();
}

const why = await untilStopped({
  signal: duration > 0 ? AbortSignal.timeout(duration * 1000) : undefined,
  exitOnRepeat: true,
});
say(`stopping (${why})`);
stop.abort();
clearInterval(ticker);
await load;
say(`in all, ${line(total.summary())}`);
await Promise.all([...nodes.values()].map((n) => n.stop()));
await spectator.close();
await service.stop();
await Deno.remove(data, { recursive: true });
Deno.exit(0);
