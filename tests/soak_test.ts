/**
 * The few minutes of soak CI runs (`deno task soak`, tests/chaos/soak.ts):
 * the chaos cluster under its steady load with a fault every 30 s, every
 * process's memory and handles and etcd's size and keys sampled every 2 s.
 * It fails on growth beyond noise, a checker violation, a process that
 * exited (no soak fault ends one) or a harness error,
 * and checks that every series was sampled (a soak that measured nothing
 * must not pass). The hour-long run's figures are in docs/reliability.md.
 */
import assert from "node:assert/strict";
import type { SoakReport } from "./chaos/soak.ts";
import { withReportRun } from "./support/report_run.ts";

const MAIN = new URL("./chaos/soak_main.ts", import.meta.url).pathname;

Deno.test({
  name: "a short soak finds no growth and no violation",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withReportRun<SoakReport>({
      script: MAIN,
      args: (out) => [
        ...["--seed", "20261206", "--duration", "100s", "--fault-every", "30s"],
        ...["--sample-every", "2s", "--warm-up", "30s", "--out", out],
      ],
      file: "soak.json",
      prefix: "soak-ci-",
    }, ({ report, text, code }) => {
      assert.ok(report, `the soak wrote no results:\n${text}`);
      const measured = new Set(report.series.filter((s) => !s.unjudged).map((s) => s.process));
      for (const process of ["service-0", "service-1", "service-2", "exec-0", "spectator-0"]) {
        assert.ok(measured.has(process), `no judged samples of ${process}:\n${text}`);
      }
      assert.ok(
        report.series.some((s) => s.metric === "etcd-keys" && !s.unjudged),
        `etcd was not sampled:\n${text}`,
      );
      assert.ok(report.faults.length >= 2, `faults: ${report.faults.length}\n${text}`);
      assert.ok(report.load.namespaceCycles >= 2, text);
      assert.deepEqual(report.leaks, [], text);
      assert.deepEqual(report.violations, [], text);
      assert.deepEqual(report.harnessErrors, [], text);
      assert.deepEqual(report.crashes, [], text);
      assert.equal(code, 0, text);
    });
  },
});
