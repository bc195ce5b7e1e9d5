// deno-lint-ignore-file no-console -- examples print what happens
/**
 * Per-entity sequential processing: events for many entities, interleaved,
 * are routed with the spectator to each entity's owner and processed there
 * in the order sent.
 *
 * ```sh
 * deno run -A examples/per_entity/main.ts --nodes 3 --entities 6 --events 8
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { Spectator } from "../../packages/sdk/mod.ts";
import { type Child, spawnChild } from "../_shared/child.ts";
import { clockTime, numberFlag, sleep, untilStopped } from "../_shared/cli.ts";
import { readRecords } from "../_shared/records.ts";
import { startService } from "../_shared/service.ts";
import { orderProblems, type ProcessedRecord } from "./events.ts";
import { produce } from "./producer.ts";

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    nodes: { type: "string", default: "3" },
    entities: { type: "string", default: "6" },
    events: { type: "string", default: "8" },
    help: { type: "boolean" },
  },
});
if (flags.help) {
  console.log(
    `Usage: deno run -A examples/per_entity/main.ts [--nodes 3] [--entities 6] [--events 8]`,
  );
  Deno.exit(0);
}
const nodeCount = numberFlag("nodes", flags.nodes, 1);
const entityCount = numberFlag("entities", flags.entities, 1);
const eventCount = numberFlag("events", flags.events, 1);
const say = (message: string) => console.log(`${clockTime()} ${"main".padEnd(7)} ${message}`);

const tmp = await Deno.makeTempDir({ prefix: "per-entity-" });
const record = `${tmp}/processed.jsonl`;
const service = await startService({
  // An entity stays with its owner while the owner lives (sticky placement).
  namespaces: [{ name: "entities", type: "ephemeral", maxMovesPerPass: 0 }],
  onError: (line) => say(`service: ${line}`),
});
say(`Shard Manager listens on ${service.address} (embedded store)`);
const nodes: Child[] = [];
for (let i = 1; i <= nodeCount; i++) {
  nodes.push(spawnChild(new URL("./node.ts", import.meta.url), [
    ...["--service", service.address, "--record", record, "--name", `node-${i}`],
  ], { name: `node-${i}`, onLine: (line) => console.log(line) }));
}
const spectator = await new Spectator({
  addresses: service.address,
  namespace: "entities",
  namespaceType: "ephemeral",
}).start({ timeoutMs: 10_000 });
// Route only once every node serves, so that the entities spread over all of them.
while (spectator.placement === undefined || spectator.placement.executors.size < nodeCount) {
  await sleep(100);
}

const stop = new AbortController();
void untilStopped({ exitOnRepeat: true }).then(() => stop.abort());
const entities = Array.from({ length: entityCount }, (_, i) => `order-${i + 1}`);
say(`sending ${eventCount} events for each of ${entities.join(", ")}, interleaved`);
let exitCode = 0;
try {
  const sent = await produce({
    spectator,
    entities,
    events: eventCount,
    signal: stop.signal,
    onSent: (event, address) => {
      if (event.seq > 0) return;
      const owner = spectator.ownerOf(event.entity)?.executorId ?? "its owner";
      say(`${event.entity} is owned by ${owner}, serving ${address}`);
    },
  });
  const total = [...sent.values()].reduce((a, b) => a + b, 0);
  let records: ProcessedRecord[] = [];
  const deadline = Date.now() + 30_000;
  while (records.length < total && Date.now() < deadline && !stop.signal.aborted) {
    await sleep(100);
    records = await readRecords<ProcessedRecord>(record);
  }
  const problems = orderProblems(records, sent);
  for (const problem of problems) say(`out of order: ${problem}`);
  if (problems.length === 0) {
    say(`all ${total} events processed; each entity's in the order sent`);
  } else exitCode = 1;
} catch (error) {
  if (!stop.signal.aborted) throw error;
  say("stopped (Ctrl-C)");
}
await spectator.close();
await Promise.all(nodes.map((n) => n.stop()));
await service.stop();
await Deno.remove(tmp, { recursive: true });
Deno.exit(exitCode);
