import assert from "node:assert/strict";
import { auditLedger } from "../examples/cron_singleton/audit.ts";
import {
  FencedLedger,
  type LeaseEntry,
  type LedgerEntry,
  type RunEntry,
  StaleTokenError,
} from "../examples/cron_singleton/ledger.ts";
import { startService } from "../examples/_shared/service.ts";
import { Nodes, waitFor } from "./support/example_harness.ts";

const NODE = new URL("../examples/cron_singleton/node.ts", import.meta.url);
const EVERY_SECOND = "* * * * * *";
const runs = (entries: LedgerEntry[]) => entries.filter((e): e is RunEntry => e.kind === "run");
const leases = (entries: LedgerEntry[]) =>
  entries.filter((e): e is LeaseEntry => e.kind === "lease");

Deno.test("cron singleton: every tick runs exactly once across a SIGKILL of the leader, and the dead leader's token is rejected", async () => {
  const dir = await Deno.makeTempDir({ prefix: "example-cron-" });
  const ledger = new FencedLedger(`${dir}/ledger.jsonl`);
  await using service = await startService({
    namespaces: [{ name: "cron-leader", type: "fixed", shardNum: 1 }],
  });
  await using nodes = new Nodes();
  try {
    for (const name of ["node-1", "node-2", "node-3"]) {
      nodes.start(NODE, name, [
        ...["--service", service.address, "--ledger", ledger.path, "--name", name],
        ...["--cron", EVERY_SECOND, "--job-ms", "50"],
      ]);
    }
    const first = await waitFor(async () => {
      const entries = await ledger.entries();
      return runs(entries).length >= 3 ? leases(entries).at(-1) : undefined;
    }, () => `no leader ran 3 ticks:\n${nodes.output()}`);
    const leader = nodes.children.find((n) => n.pid === first.pid);
    assert.ok(leader, `the lease names pid ${first.pid}, one of the nodes`);
    await leader.kill("SIGKILL");
    const killedAt = Date.now();

    const second = await waitFor(async () => {
      const entries = await ledger.entries();
      const lease = leases(entries).at(-1)!;
      const after = runs(entries).filter((r) => r.token === lease.token && r.at > killedAt);
      return lease.pid !== first.pid && after.length >= 5 ? lease : undefined;
    }, () => `no survivor took over:\n${nodes.output()}`);
    await nodes.stop();

    const entries = await ledger.entries();
    const audit = auditLedger(entries, EVERY_SECOND);
    assert.deepEqual(audit.duplicates, [], "no tick ran twice");
    assert.deepEqual(audit.missing, [], "no tick was skipped");
    assert.deepEqual(audit.outOfOrder, [], "ticks ran in order");
    const ticks = audit.runs.map((r) => Date.parse(r.tick));
    assert.ok(
      ticks[0]! < killedAt && ticks.at(-1)! > killedAt + 3_000,
      "the window spans the kill",
    );
    assert.ok(BigInt(second.token) > BigInt(first.token), "the new leader's token is higher");
    assert.ok(
      audit.late.some((r) => r.token === second.token),
      `the new leader caught up the ticks missed during the takeover:\n${nodes.output()}`,
    );
    for (const run of audit.runs) {
      const lease = leases(entries).find((l) => l.token === run.token && l.pid === run.pid);
      assert.ok(lease, `tick ${run.tick} ran under a lease of its node (token ${run.token})`);
    }

    // The dead leader, had it only been paused, could not write any more.
    const next = new Date(ticks.at(-1)! + 1000);
    const stale = { tick: next, token: first.token, node: first.node, lateMs: 0, result: "late" };
    await assert.rejects(ledger.commit(stale), StaleTokenError);
    await assert.rejects(ledger.fence({ token: first.token, node: first.node }), StaleTokenError);
    assert.equal((await ledger.entries()).length, entries.length, "rejected writes leave no trace");
    await ledger.commit({ ...stale, token: second.token, node: second.node });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
