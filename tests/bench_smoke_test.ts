/**
 * Keeps the benchmark suite from rotting: its cheapest parts run in quick
 * mode (pure balance planning, and the upstream-limit comparison on a real
 * etcd and a real service) and print their table. It never checks a figure:
 * figures are for BENCHMARKS.md, not for CI.
 */
import assert from "node:assert/strict";

const ROOT = new URL("..", import.meta.url).pathname;

Deno.test("the quick benchmark suite runs its cheapest parts and prints their figures", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "bench/run.ts", "--quick", "--only", "balance,upstream"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  assert.ok(out.success, `bench/run.ts failed:\n${stderr}`);
  assert.match(stdout, /Measurement\s+Figure\s+Median/);
  assert.match(stdout, /8\. Balance quality\s+.*GREEDY max\/mean/);
  assert.match(stdout, /9\. Upstream's limit\s+.*upstream-style commit/);
  assert.doesNotMatch(
    stderr,
    /wrote .*BENCHMARKS\.md/,
    "a quick run must not rewrite BENCHMARKS.md",
  );
});
