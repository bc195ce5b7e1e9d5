import assert from "node:assert/strict";
import { createSpectator } from "../src/client/mod.ts";
import { orderProblems, type ProcessedRecord } from "../examples/per_entity/events.ts";
import { produce } from "../examples/per_entity/producer.ts";
import { readRecords } from "../examples/_shared/records.ts";
import { startService } from "../examples/_shared/service.ts";
import { Nodes, waitFor } from "./support/example_harness.ts";

const NODE = new URL("../examples/per_entity/node.ts", import.meta.url);

Deno.test("per-entity processing: interleaved events of many entities are processed per entity in exactly the order sent", async () => {
  const dir = await Deno.makeTempDir({ prefix: "example-entities-" });
  const record = `${dir}/processed.jsonl`;
  await using service = await startService({
    // An entity stays with its owner while the owner lives (sticky placement).
    namespaces: [{ name: "entities", type: "ephemeral", maxMovesPerPass: 0 }],
  });
  await using nodes = new Nodes();
  await using spectator = createSpectator({
    addresses: [service.address],
    namespace: "entities",
    namespaceType: "ephemeral",
  });
  try {
    for (const name of ["node-1", "node-2", "node-3"]) {
      nodes.start(NODE, name, ["--service", service.address, "--record", record, "--name", name]);
    }
    await waitFor(
      () => (spectator.placement?.executors.size ?? 0) === 3,
      () => `three executors never showed up:\n${nodes.output()}`,
    );
    const entities = Array.from({ length: 8 }, (_, i) => `order-${i + 1}`);
    const sent = await produce({ spectator, entities, events: 25, maxDelayMs: 10 });
    assert.deepEqual([...sent.values()], entities.map(() => 25));

    const records = await waitFor(async () => {
      const all = await readRecords<ProcessedRecord>(record);
      return all.length >= 8 * 25 && all;
    }, () => `not every event was processed:\n${nodes.output()}`);
    assert.deepEqual(orderProblems(records, sent), [], "each entity's events in the order sent");
    assert.equal(records.length, 8 * 25, "each event processed once");

    const owners = new Map<string, Set<string>>();
    for (const r of records) owners.set(r.entity, (owners.get(r.entity) ?? new Set()).add(r.node));
    assert.ok([...owners.values()].every((s) => s.size === 1), "one owner per entity");
    assert.ok(new Set(records.map((r) => r.node)).size > 1, "the entities spread over the nodes");
    let switches = 0;
    for (let i = 1; i < records.length; i++) {
      if (records[i]!.entity !== records[i - 1]!.entity) switches++;
    }
    assert.ok(switches > 8 * 4, `the entities' events interleaved (${switches} switches)`);

    // Each entity's last event reports its shard DONE: the service deletes it.
    await waitFor(
      () => spectator.placement?.owners.size === 0,
      () => `shards left: ${[...spectator.placement?.owners.keys() ?? []].join(" ")}`,
    );
    await nodes.stop();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
