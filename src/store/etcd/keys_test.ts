import assert from "node:assert/strict";
import { NamespaceKeys, parseKey, prefixEnd, seqKey } from "./keys.ts";

const keys = new NamespaceKeys("sm/test", "orders");

Deno.test("namespace keys live under <prefix>/ns/<namespace>/", () => {
  assert.equal(keys.root, "sm/test/ns/orders/");
  assert.equal(keys.executor("e1", "heartbeat"), "sm/test/ns/orders/executors/e1/heartbeat");
  assert.equal(keys.logEntry(12), "sm/test/ns/orders/assignment/log/0000000000000012");
  assert.equal(keys.parts(3), "sm/test/ns/orders/assignment/parts/0000000000000003/");
});

Deno.test("seqKey pads so that keys sort like the numbers", () => {
  const seqs = [0, 1, 9, 10, 99, 100, 123_456_789];
  assert.deepEqual(seqs.map(seqKey).toSorted(), seqs.map(seqKey));
  assert.equal(seqKey(42).length, 16);
});

Deno.test("parseKey round-trips every key kind, including ids and shard keys with slashes", () => {
  const cases: [string, ReturnType<typeof parseKey>][] = [
    [keys.leader, { kind: "leader" }],
    [keys.head, { kind: "head" }],
    [keys.snapshot, { kind: "snapshot" }],
    [keys.logEntry(7), { kind: "log", seq: 7 }],
    [`${keys.parts(7)}3`, { kind: "parts", seq: 7, index: 3 }],
    [`${keys.snapshotParts(64)}0`, { kind: "snapshot-parts", seq: 64, index: 0 }],
    [`${keys.drained}42`, { kind: "drained", shardKey: "42" }],
    [`${keys.drained}a/b/c`, { kind: "drained", shardKey: "a/b/c" }],
    [keys.executorDrain("selector:a=b/c,d=e"), {
      kind: "executor-drain",
      id: "selector:a=b/c,d=e",
    }],
    [`${keys.executorDrains}%E0%A4%A`, { kind: "unknown" }],
    [`${keys.requests}job/2024/01`, { kind: "requested", shardKey: "job/2024/01" }],
    [`${keys.requests}executors/x/heartbeat`, {
      kind: "requested",
      shardKey: "executors/x/heartbeat",
    }],
  ];
  for (const part of ["heartbeat", "metadata", "reports"] as const) {
    for (const id of ["e1", "pod/7", "zone-a/host/1", "x/heartbeat", "ü/日本"]) {
      cases.push([keys.executor(id, part), { kind: "executor", executorId: id, part }]);
    }
  }
  for (const [key, expected] of cases) assert.deepEqual(parseKey(keys, key), expected, key);
});

Deno.test("parseKey reads keys it does not know, or of another namespace, as unknown", () => {
  for (
    const key of [
      "sm/test/ns/other/leader",
      "sm/test/ns/orders",
      `${keys.root}executors/e1`,
      `${keys.root}executors/e1/bogus`,
      `${keys.root}executors//heartbeat`,
      `${keys.root}something/else`,
      `${keys.root}leader/x`,
    ]
  ) {
    assert.deepEqual(parseKey(keys, key), { kind: "unknown" }, key);
  }
});

Deno.test("prefixEnd bounds exactly the keys that start with the prefix", () => {
  assert.equal(prefixEnd("abc"), "abd");
  const end = prefixEnd(keys.root);
  assert.equal(end, "sm/test/ns/orders0");
  const inside = [keys.root, keys.leader, `${keys.drained}\u{10ffff}`, `${keys.requests}~~~`];
  for (const key of inside) assert.ok(key >= keys.root && key < end, key);
  for (const key of ["sm/test/ns/orders0", "sm/test/ns/orders-x/leader", "sm/test/ns/orders"]) {
    assert.ok(!(key >= keys.root && key < end), key);
  }
});
