import assert from "node:assert/strict";
import { join } from "node:path";
import { EmbeddedStore, openEmbeddedStores } from "../src/store/embedded/mod.ts";
import { assign, claim, type OpenStore, storeContract } from "./support/store_contract.ts";
import { hiddenExecutorsContract } from "./support/store_contract_hidden.ts";
import { drainReasonsContract } from "./support/store_contract_drain_reasons.ts";
import { leaderWritesContract } from "./support/store_contract_leader_writes.ts";
import { historyTrimContract } from "./support/store_contract_history.ts";
import { slicesContract } from "./support/store_contract_slices.ts";
import { operatorWriteContract } from "./support/store_contract_operator.ts";

async function tempDir(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "sm-embedded-" });
  return { dir, remove: () => Deno.remove(dir, { recursive: true }) };
}

const openEmbedded: OpenStore = async () => {
  const { dir, remove } = await tempDir();
  const store = await EmbeddedStore.open(dir);
  return {
    store,
    async cleanup() {
      await store.close();
      await remove();
    },
  };
};
storeContract("embedded", openEmbedded);
operatorWriteContract("embedded", openEmbedded);
hiddenExecutorsContract("embedded", openEmbedded);
drainReasonsContract("embedded", openEmbedded);
leaderWritesContract("embedded", openEmbedded);
historyTrimContract("embedded", openEmbedded);
slicesContract("embedded", openEmbedded);

Deno.test("embedded store: everything survives a reopen, from the journal and from a snapshot", async () => {
  const { dir, remove } = await tempDir();
  try {
    let store = await EmbeddedStore.open(dir);
    await store.writeExecutors("ns", [{
      executorId: "e1",
      heartbeat: { status: "ACTIVE", timestampMs: 5 },
      metadata: { host: "w7" },
    }, { executorId: "e2", heartbeat: { status: "UNKNOWN", statusNumber: 7, timestampMs: 6 } }]);
    const fence = await store.claimLeadership("ns", claim(3));
    await store.commitAssignment(fence, 1, { ...assign({ e1: ["a", "b"] }), atMs: 77 });
    await store.setDrained("ns", ["b"], true);
    await store.putExecutorDrain("ns", {
      id: "id:e9",
      executorId: "e9",
      reason: "",
      createdAtMs: 1,
    });
    const before = await store.loadNamespace("ns");
    assert.equal(before.executors.get("e2")?.heartbeat?.statusNumber, 7);
    // Simulate a crash: drop the store without close(), so only the journal holds the data.
    const copy = await Deno.makeTempDir({ prefix: "sm-embedded-copy-" });
    await Deno.copyFile(join(dir, "journal.jsonl"), join(copy, "journal.jsonl"));
    await Deno.writeTextFile(join(copy, "journal.jsonl"), '{"r":99,"ns":"ns","e":[{"ty', {
      append: true,
    });
    const crashed = await EmbeddedStore.open(copy);
    assert.deepEqual(await crashed.loadNamespace("ns"), before, "replayed; the torn line ignored");
    await crashed.close();
    await Deno.remove(copy, { recursive: true });

    await store.close();
    assert.equal((await Deno.readTextFile(join(dir, "journal.jsonl"))).length, 0, "folded");
    store = await EmbeddedStore.open(dir);
    assert.deepEqual(await store.loadNamespace("ns"), before, "from the snapshot");
    await assert.rejects(
      store.claimLeadership("ns", claim(3)),
      /newer term/,
      "the claim survived too",
    );
    await store.close();
  } finally {
    await remove();
  }
});

Deno.test("embedded store: every acknowledged write survives a crash, across journal compactions", async () => {
  const { dir, remove } = await tempDir();
  const copy = await Deno.makeTempDir({ prefix: "sm-embedded-crash-" });
  try {
    const store = await EmbeddedStore.open(dir, { compactAfterLines: 5 });
    const keys = Array.from({ length: 23 }, (_, i) => `shard-${i}`);
    // Concurrent writes: some land in a group that a compaction covers, some after it.
    await Promise.all(keys.map((key) => store.setDrained("ns", [key], true)));
    // Crash: copy the files as they are, without close().
    for (const name of ["journal.jsonl", "snapshot.json"]) {
      await Deno.copyFile(join(dir, name), join(copy, name)).catch(() => {});
    }
    const reopened = await EmbeddedStore.open(copy);
    assert.deepEqual([...(await reopened.loadNamespace("ns")).drained].sort(), keys.sort());
    await reopened.close();
    await store.close();
  } finally {
    await Deno.remove(copy, { recursive: true });
    await remove();
  }
});

Deno.test("embedded store: a second process cannot open the same data directory", async () => {
  const { dir, remove } = await tempDir();
  const store = await EmbeddedStore.open(dir);
  try {
    const child = await new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `import { EmbeddedStore } from "${
          new URL("../src/store/embedded/mod.ts", import.meta.url).href
        }";
         try { await EmbeddedStore.open(${JSON.stringify(dir)}); Deno.exit(0); }
         catch (e) { console.error(String(e)); Deno.exit(3); }`,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(child.code, 3);
    assert.match(new TextDecoder().decode(child.stderr), /in use by another Shard Manager process/);
  } finally {
    await store.close();
    await remove();
  }
});

Deno.test("embedded leader store: one leader at a time, in order, with growing terms", async () => {
  const { dir, remove } = await tempDir();
  const { store, leaderStore } = await openEmbeddedStores(dir);
  const abort = new AbortController();
  try {
    const options = { ttlMs: 2_000, signal: abort.signal };
    const first = await leaderStore.campaign("ns", "i-1", options);
    let secondWon = false;
    const second = leaderStore.campaign("ns", "i-2", options).then((l) => (secondWon = true, l));
    const withdrawn = new AbortController();
    const third = leaderStore.campaign("ns", "i-3", { ttlMs: 2_000, signal: withdrawn.signal });
    withdrawn.abort(new Error("gave up"));
    await assert.rejects(third, /gave up/);
    // Nothing must happen: a wrong hand-over (to i-2, as i-3 withdraws) gets a moment to show.
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(secondWon, false);
    assert.deepEqual(await leaderStore.leader("ns"), { instanceId: "i-1", term: first.term });
    await first.resign();
    assert.equal(first.signal.aborted, true);
    const next = await second;
    assert.ok(next.term > first.term);
    assert.equal((await leaderStore.leader("ns"))?.instanceId, "i-2");
    const other = await leaderStore.campaign("other", "i-1", options);
    assert.ok(other.term > next.term, "namespaces elect independently");
    await leaderStore.close();
    assert.equal(next.signal.aborted, true, "closing ends leaderships");
  } finally {
    abort.abort();
    await store.close();
    await remove();
  }
});
