import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Etcd3 } from "etcd3";
import { createEtcdClient, EtcdStore } from "../src/store/etcd/mod.ts";
import { etcdForFile, uniquePrefix } from "./support/etcd.ts";
import { assign, bigDelta, claim, ownersImage, storeContract } from "./support/store_contract.ts";
import { hiddenExecutorsContract } from "./support/store_contract_hidden.ts";
import { drainReasonsContract } from "./support/store_contract_drain_reasons.ts";
import { leaderWritesContract } from "./support/store_contract_leader_writes.ts";
import { historyTrimContract } from "./support/store_contract_history.ts";
import { slicesContract } from "./support/store_contract_slices.ts";
import { operatorWriteContract } from "./support/store_contract_operator.ts";

// One etcd, with default settings (so at most 128 operations per transaction), for the file:
// started before its first test and stopped after its last.
const etcd = etcdForFile();
const connect = () => createEtcdClient({ endpoints: etcd.endpoints, dialTimeoutMs: 5_000 });

const openEtcd = (prefix: string) => {
  const store = new EtcdStore(connect(), prefix);
  return Promise.resolve({ store, cleanup: () => store.close() });
};
storeContract("etcd", openEtcd);
operatorWriteContract("etcd", openEtcd);
hiddenExecutorsContract("etcd", openEtcd);
drainReasonsContract("etcd", openEtcd);
leaderWritesContract("etcd", openEtcd);
historyTrimContract("etcd", openEtcd);
slicesContract("etcd", openEtcd);

/** Counts the keys under `prefix` with a raw client. */
async function countKeys(client: Etcd3, prefix: string): Promise<number> {
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const res = await client.kv.range({
    key: Buffer.from(prefix),
    range_end: Buffer.from(end),
    count_only: true,
  });
  return Number(res.count);
}

Deno.test("etcd store: compaction deletes the log entries and parts it folds", async () => {
  const prefix = uniquePrefix("etcd compaction");
  const store = new EtcdStore(connect(), prefix);
  const raw = connect();
  const area = (name: string) => countKeys(raw, `${prefix}/ns/ns/assignment/${name}/`);
  try {
    const fence = await store.claimLeadership("ns", claim(1));
    await store.commitAssignment(fence, 1, assign({ e1: ["a"] }));
    await store.commitAssignment(fence, 2, bigDelta(60_000, 3, `tenant-${"z".repeat(26)}-`));
    await store.commitAssignment(fence, 3, assign({ e2: ["a"] }));
    assert.deepEqual([await area("log"), (await area("parts")) > 1], [3, true]);
    const owners = new Map((await store.loadNamespace("ns")).owners);
    await store.compactAssignment(fence, 3, ownersImage(owners));
    assert.deepEqual([await area("log"), await area("parts")], [0, 0]);
    const firstSnapshot = await area("snapshot-parts");
    assert.ok(firstSnapshot > 1);
    await store.commitAssignment(fence, 4, assign({ e3: ["b"] }));
    assert.equal(await area("log"), 1);
    await store.compactAssignment(fence, 4, ownersImage(owners.set("b", "e3")));
    // Only the newest snapshot's parts remain.
    assert.deepEqual([await area("log"), await area("snapshot-parts")], [0, firstSnapshot]);
    assert.deepEqual((await store.loadNamespace("ns")).owners, owners);
  } finally {
    raw.close();
    await store.close();
  }
});

Deno.test("etcd store: resetNamespace returns the number of keys it deleted", async () => {
  const prefix = uniquePrefix("etcd reset count");
  const store = new EtcdStore(connect(), prefix);
  const raw = connect();
  try {
    await store.writeExecutors("a", [
      { executorId: "e1", heartbeat: { status: "ACTIVE", timestampMs: 1 }, metadata: {} },
    ]);
    await store.setDrained("a", ["d"], true);
    const fence = await store.claimLeadership("a", claim(1));
    await store.commitAssignment(fence, 1, assign({ e1: ["s"] }));
    await store.writeExecutors("ab", [
      { executorId: "e1", heartbeat: { status: "ACTIVE", timestampMs: 1 } },
    ]);
    // heartbeat, metadata, drained, leader, head, log entry
    assert.equal(await countKeys(raw, `${prefix}/ns/a/`), 6);
    assert.equal(await store.resetNamespace("a"), 6);
    assert.equal(await countKeys(raw, `${prefix}/ns/a/`), 0);
    assert.equal(await countKeys(raw, `${prefix}/ns/ab/`), 1);
  } finally {
    raw.close();
    await store.close();
  }
});
