// deno-lint-ignore-file no-control-regex -- the tests look for ANSI escape codes
import assert from "node:assert/strict";
import { eventually } from "./support/executors.ts";
import { startSmctlFixture } from "./support/smctl_fixture.ts";
import { json, spawnSmctlInTerminal } from "./support/smctl.ts";

Deno.test("smctl namespace watch: a line per update, JSON lines, a live view; Ctrl-C exits 0", async (t) => {
  await using fx = await startSmctlFixture("smctl-watch");

  await t.step("lines when stdout is not a terminal", async () => {
    const watch = fx.spawn(["-n", "ns", "namespace", "watch"]);
    await watch.waitFor(
      ({ stdout }) => /namespace=ns executors=3 assigned=12 a=\d+ b=\d+ c=\d+\n/.test(stdout),
      15_000,
      "a first line with every shard assigned",
    );
    assert.equal((await fx.run(["-n", "ns", "executor", "drain", "a"])).code, 0);
    await watch.waitFor(
      ({ stdout }) => / a=0\(drained\) b=\d+ c=\d+\n/.test(stdout),
      15_000,
      "a line with a drained and empty",
    );
    watch.kill("SIGINT");
    const result = await watch.finished;
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, "");
    assert.ok(
      result.stdout.trimEnd().split("\n").every((line) =>
        /^\d{4}-\d\d-\d\dT\S+Z namespace=ns executors=3 assigned=\d+( \w+=\d+(\([\w,]+\))?)+$/
          .test(line)
      ),
      result.stdout,
    );
    assert.equal((await fx.run(["-n", "ns", "executor", "undrain", "a"])).code, 0);
  });

  await t.step("JSON lines with --json", async () => {
    const watch = fx.spawn(["-n", "ns", "namespace", "watch", "--json"]);
    const records = () =>
      watch.stdout().split("\n").filter((l) => l !== "").map((l) =>
        JSON.parse(l) as { namespace: string; assignedShards: number; executors: unknown[] }
      );
    await watch.waitFor(
      () => records().some((r) => r.assignedShards === 12 && r.executors.length === 3),
      15_000,
      "a record with every shard assigned",
    );
    watch.kill("SIGINT");
    const result = await watch.finished;
    assert.equal(result.code, 0, result.stderr);
    const last = records().at(-1)!;
    assert.equal(last.namespace, "ns");
    assert.deepEqual(
      (last.executors as { id: string; status: string; alive: boolean }[]).map((
        e,
      ) => [e.id, e.status, e.alive]),
      [["a", "ACTIVE", true], ["b", "ACTIVE", true], ["c", "ACTIVE", true]],
    );
  });

  await t.step("a view redrawn in place on a terminal; Ctrl-C restores the cursor", async () => {
    const watch = spawnSmctlInTerminal(["--address", fx.address, "-n", "ns", "namespace", "watch"]);
    // The view is redrawn every second: wait for a redraw (cursor up, clear).
    await watch.waitFor(
      ({ stdout }) => /Ctrl-C to exit/.test(stdout) && /\x1b\[\d+A\x1b\[J/.test(stdout),
      15_000,
      "a frame and a redraw",
    );
    await watch.type("\x03");
    const result = await watch.finished;
    assert.equal(result.code, 0, result.stdout);
    assert.ok(result.stdout.includes("\x1b[?25l"), "the cursor is hidden while live");
    assert.ok(result.stdout.trimEnd().endsWith("\x1b[?25h"), "and shown again at the end");
    assert.match(result.stdout, /EXECUTOR.*STATUS.*ALIVE.*DRAINED.*SHARDS/);
    assert.match(result.stdout, /namespace .*ns.* · 3 executors · 12 shards assigned/);
  });

  await t.step("an unknown namespace exits 3", async () => {
    const result = await fx.run(["-n", "nope", "namespace", "watch"]);
    assert.equal(result.code, 3);
    assert.equal(result.stderr, 'smctl: namespace "nope" not found\n');
  });
});

Deno.test("smctl namespace force-reset: refused without a terminal, confirmed by retyping, or --yes", async (t) => {
  await using fx = await startSmctlFixture("smctl-reset");
  const executorCount = async () =>
    json<{ executors: unknown[] }>(await fx.run(["-n", "ns", "executor", "list", "--json"]))
      .executors.length;

  await t.step("refused when stdin is not a terminal and --yes is missing", async () => {
    const result = await fx.run(["-n", "ns", "namespace", "force-reset"], { stdin: "ns\n" });
    assert.equal(result.code, 2);
    assert.equal(result.stdout, "");
    assert.match(
      result.stderr,
      /^smctl: refusing to reset namespace "ns": stdin is not a terminal, so nobody can confirm; pass --yes to skip the confirmation\n$/,
    );
    assert.equal(await executorCount(), 3, "nothing was deleted");
  });

  await t.step("a wrong name typed on the terminal aborts with exit 1", async () => {
    const reset = spawnSmctlInTerminal([
      "--address",
      fx.address,
      "-n",
      "ns",
      "namespace",
      "force-reset",
    ]);
    await reset.waitFor(
      ({ stdout }) => stdout.includes("Type the namespace name to confirm: "),
      15_000,
      "the prompt",
    );
    await reset.type("nss\r");
    const result = await reset.finished;
    assert.equal(result.code, 1, result.stdout);
    assert.match(result.stdout, /smctl: confirmation did not match \(typed "nss", expected "ns"\)/);
    assert.equal(await executorCount(), 3, "nothing was deleted");
  });

  await t.step("the right name typed on the terminal resets", async () => {
    const reset = spawnSmctlInTerminal([
      "--address",
      fx.address,
      "-n",
      "ns",
      "namespace",
      "force-reset",
    ]);
    await reset.waitFor(
      ({ stdout }) => stdout.includes("Type the namespace name to confirm: "),
      15_000,
      "the prompt",
    );
    await reset.type("ns\r");
    const result = await reset.finished;
    assert.equal(result.code, 0, result.stdout);
    assert.match(result.stdout, /Reset namespace "ns": deleted [1-9]\d* keys\./);
  });

  await t.step("--yes resets without asking, table and JSON", async () => {
    // Executors re-register with their next heartbeat, so there is state to delete again.
    await eventually(async () => await executorCount() === 3, 10_000, "executors to re-register");
    const table = await fx.run(["-n", "ns", "namespace", "force-reset", "--yes"]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^Reset namespace "ns": deleted [1-9]\d* keys\.\n$/);
    assert.equal(table.stderr, "");
    await eventually(async () => await executorCount() === 3, 10_000, "executors to re-register");
    const doc = json<{ namespace: string; deletedKeys: number }>(
      await fx.run(["-n", "ns", "namespace", "force-reset", "--yes", "--json"]),
    );
    assert.equal(doc.namespace, "ns");
    assert.ok(Number.isInteger(doc.deletedKeys) && doc.deletedKeys > 0, `${doc.deletedKeys}`);
  });

  await t.step("an unknown namespace exits 3", async () => {
    const result = await fx.run(["-n", "nope", "namespace", "force-reset", "--yes"]);
    assert.equal(result.code, 3, result.stderr);
  });
});
