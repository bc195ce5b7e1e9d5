// deno-lint-ignore-file no-console -- examples print what happens
/**
 * Sharded dataset loading: N slices of a dataset, each loaded by the node
 * that owns its shard. When a node dies, its slices are loaded by the
 * survivors, and no slice is held by two live nodes at once.
 *
 * ```sh
 * deno run -A examples/sharded_dataset/main.ts --nodes 3 --slices 12
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { type Placement, Spectator } from "../../packages/sdk/mod.ts";
import { type Child, spawnChild } from "../_shared/child.ts";
import { clockTime, numberFlag, sleep, untilStopped } from "../_shared/cli.ts";
import { readRecords } from "../_shared/records.ts";
import { startService } from "../_shared/service.ts";
import { holders, intervals, overlaps, type SliceRecord } from "./audit.ts";

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    nodes: { type: "string", default: "3" },
    slices: { type: "string", default: "12" },
    "kill-after": { type: "string", default: "10" },
    duration: { type: "string", default: "0" },
    help: { type: "boolean" },
  },
});
if (flags.help) {
  console.log(`Usage: deno run -A examples/sharded_dataset/main.ts [--nodes 3] [--slices 12]
       [--kill-after 10] [--duration 0]

  --kill-after S   SIGKILL node-2 after S seconds (0: never)
  --duration S     stop after S seconds (0: on Ctrl-C)`);
  Deno.exit(0);
}
const nodeCount = numberFlag("nodes", flags.nodes, 1);
const slices = numberFlag("slices", flags.slices, 1);
const killAfter = numberFlag("kill-after", flags["kill-after"], 0);
const duration = numberFlag("duration", flags.duration, 0);
const say = (message: string) => console.log(`${clockTime()} ${"main".padEnd(7)} ${message}`);

const tmp = await Deno.makeTempDir({ prefix: "sharded-dataset-" });
const record = `${tmp}/slices.jsonl`;
const service = await startService({
  namespaces: [{ name: "dataset", type: "fixed", shardNum: slices, loadBalancer: "naive" }],
  onError: (line) => say(`service: ${line}`),
});
say(`Shard Manager listens on ${service.address} (embedded store); records: ${record}`);

const spectator = await new Spectator({
  addresses: service.address,
  namespace: "dataset",
  namespaceType: "fixed",
}).start({ timeoutMs: 10_000 });
const stop = new AbortController();
void (async () => {
  for await (const change of spectator.changes({ signal: stop.signal })) {
    say(`placement: ${describe(change.placement, slices)}`);
  }
})();

const nodes: Child[] = [];
for (let i = 1; i <= nodeCount; i++) {
  nodes.push(spawnChild(new URL("./node.ts", import.meta.url), [
    ...["--service", service.address, "--record", record],
    ...["--name", `node-${i}`, "--slices", String(slices)],
  ], { name: `node-${i}`, onLine: (line) => console.log(line) }));
}

const deaths = new Map<number, number>();
const victim = nodes[1];
if (killAfter > 0 && victim) {
  void sleep(killAfter * 1000, stop.signal).then(async () => {
    if (stop.signal.aborted) return;
    say(`SIGKILL ${victim.name} (pid ${victim.pid}); its slices move in ~2.5 s`);
    const killedAt = Date.now();
    await victim.kill("SIGKILL");
    deaths.set(victim.pid, Date.now());
    while (!stop.signal.aborted) {
      const all = intervals(await readRecords<SliceRecord>(record), deaths);
      const held = [...holders(all).values()].flat();
      if (held.length === slices && held.every((i) => i.loadedAt && i.pid !== victim.pid)) {
        say(`every slice is loaded by a survivor, ${Date.now() - killedAt} ms after the kill`);
        break;
      }
      await sleep(100, stop.signal);
    }
  });
}

const why = await untilStopped({
  signal: duration > 0 ? AbortSignal.timeout(duration * 1000) : undefined,
  exitOnRepeat: true,
});
say(`stopping (${why})`);
const stoppingAt = Date.now();
stop.abort();
await Promise.all(nodes.map((n) => n.stop()));
await spectator.close();
await service.stop();

const all = intervals(await readRecords<SliceRecord>(record), deaths);
const killedAt = deaths.get(victim?.pid ?? -1);
const during = overlaps(all, killedAt ?? stoppingAt, stoppingAt);
say(`${all.length} holding intervals over ${slices} slices`);
if (killedAt) say(`slices held by two processes at once since the kill: ${during.length}`);
const before = overlaps(all, -Infinity, killedAt ?? stoppingAt).length;
say(`overlaps while nodes joined (moves between live nodes, see README): ${before}`);
await Deno.remove(tmp, { recursive: true });
Deno.exit(during.length === 0 ? 0 : 1);

function describe(placement: Placement, slices: number): string {
  const parts = [...placement.executors.values()]
    .sort((a, b) => a.executorId.localeCompare(b.executorId))
    .map((e) => `${e.executorId} [${[...e.shards].sort((a, b) => +a - +b).join(" ")}]`);
  const unowned = slices - placement.owners.size;
  return parts.join("  ") + (unowned > 0 ? `  unowned: ${unowned}` : "");
}
