/**
 * Six isolations of one etcd member from its peers (network namespaces and nftables, as root),
 * each held 1.4-6 s, judged by the chaos checker. Regression test of a needless-move bug: a
 * leader whose namespace watch lived on the isolated member saw no heartbeat for seconds (the
 * watch stays open and silent until etcd ends it, about 3 election timeouts after the member
 * lost its leader) while its store pings went to the other members, and moved every shard off
 * executors that kept heartbeating (17 needless moves in 12 isolations with this seed, before
 * `src/leader/process/loss_check.ts`). Skipped where namespaces cannot be made.
 */
import assert from "node:assert/strict";
import type { ChaosReport } from "./chaos/run.ts";
import { withReportRun } from "./support/report_run.ts";

const MAIN = new URL("./chaos/main.ts", import.meta.url).pathname;

Deno.test({
  name: "an etcd member cut off from its peers, six times: no needless move, no violation",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await withReportRun<ChaosReport>({
      script: MAIN,
      args: (out) => [
        ...["--seed", "4242", "--kinds", "etcd-member-isolated", "--faults", "6"],
        ...["--out", out],
      ],
      file: "results.json",
      prefix: "chaos-isolated-ci-",
    }, async ({ report, text, code }) => {
      assert.ok(report, `the chaos run wrote no results:\n${text}`);
      if (report.skippedKinds.length > 0) {
        await t.step({ name: `skipped: ${report.skippedKinds[0]!.reason}`, ignore: true, fn() {} });
        return;
      }
      assert.equal(report.faults.length, 6, text);
      assert.deepEqual(report.violations, [], text);
      assert.deepEqual(report.harnessErrors, [], text);
      assert.ok(report.checks.heartbeats.answered > 0, "no heartbeat recorded");
      assert.equal(code, 0, text);
    });
  },
});
