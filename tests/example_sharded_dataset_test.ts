import assert from "node:assert/strict";
import {
  holders,
  type Interval,
  intervals,
  overlaps,
  type SliceRecord,
} from "../examples/sharded_dataset/audit.ts";
import { readRecords } from "../examples/_shared/records.ts";
import { startService } from "../examples/_shared/service.ts";
import { Nodes, waitFor } from "./support/example_harness.ts";

const NODE = new URL("../examples/sharded_dataset/node.ts", import.meta.url);
const SLICES = 12;

Deno.test("sharded dataset: a killed node's slices are loaded by the survivors, never by two live processes at once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "example-dataset-" });
  const record = `${dir}/slices.jsonl`;
  await using service = await startService({
    namespaces: [{ name: "dataset", type: "fixed", shardNum: SLICES, loadBalancer: "naive" }],
  });
  await using nodes = new Nodes();
  const deaths = new Map<number, number>();
  const current = async () => intervals(await readRecords<SliceRecord>(record), deaths);
  /** Slice → its one holder, once every slice has exactly one holder that loaded it. */
  const settled = async (allowed: (i: Interval) => boolean) => {
    const held = holders(await current());
    if (held.size !== SLICES) return undefined;
    const one = [...held.values()].map((list) => list.length === 1 ? list[0] : undefined);
    return one.every((i) => i?.loadedAt !== undefined && allowed(i)) ? held : undefined;
  };
  try {
    for (const name of ["node-1", "node-2", "node-3"]) {
      nodes.start(NODE, name, [
        ...["--service", service.address, "--record", record],
        ...["--name", name, "--slices", String(SLICES)],
      ]);
    }
    const pids = new Set(nodes.children.map((n) => n.pid));
    // Settled and balanced (4 slices each), so no move between live nodes is pending.
    const before = await waitFor(async () => {
      const held = await settled(() => true);
      const counts = new Map<number, number>();
      for (const i of [...held?.values() ?? []].flat()) {
        counts.set(i.pid, (counts.get(i.pid) ?? 0) + 1);
      }
      return counts.size === 3 && [...counts.values()].every((n) => n === SLICES / 3) && held;
    }, () => `the slices never settled on three nodes:\n${nodes.output()}`);
    const victim = nodes.children[1]!;
    const victimSlices = [...before.values()].flat().filter((i) => i.pid === victim.pid);
    assert.ok(victimSlices.length > 0, "the victim held slices");

    const since = Date.now();
    await victim.kill("SIGKILL");
    const killedAt = Date.now();
    deaths.set(victim.pid, killedAt);
    const after = await waitFor(
      () => settled((i) => i.pid !== victim.pid),
      () => `the survivors never loaded every slice:\n${nodes.output()}`,
    );
    const until = Date.now();
    for (const { slice } of victimSlices) {
      const holder = after.get(slice)![0]!;
      assert.ok(pids.has(holder.pid) && holder.pid !== victim.pid, `slice ${slice}: a survivor`);
      assert.ok(holder.start > killedAt, `slice ${slice} started only after the kill`);
    }
    assert.deepEqual(overlaps(await current(), since, until), [], "no slice held twice at once");
    await nodes.stop();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
