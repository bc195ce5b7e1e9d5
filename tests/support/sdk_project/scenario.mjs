// @ts-check
/**
 * The scenario an application team would write against a real service, run
 * by `node --test` on Node.js and by `deno test` on Deno (through node:test):
 * an executor gets every shard and the spectator routes to it; a second
 * executor joins; SIGTERM drains the first, whose shards move to the second
 * while the spectator follows; SIGTERM stops the second cleanly.
 *
 * Environment: SM_ADDRESS, SM_NAMESPACE (a fixed namespace), SM_SHARDS (its
 * shardNum).
 *
 * @module
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import process from "node:process";
import { test } from "node:test";
import { Spectator } from "../../../packages/sdk/spectator.ts";

const ADDRESS = process.env.SM_ADDRESS ?? "";
const NAMESPACE = process.env.SM_NAMESPACE ?? "";
const SHARDS = Array.from({ length: Number(process.env.SM_SHARDS ?? "0") }, (_, i) => String(i));
const APP = fileURLToPath(new URL("./executor_app.mjs", import.meta.url));

/**
 * @typedef {{ event: string, shard?: string, reason?: string, status?: string, running?: string[] }} AppEvent
 * @typedef {{ events: AppEvent[], stderr: () => string, exited: Promise<number | null>, stop: () => Promise<number | null> }} App
 */

/**
 * Starts executor_app.mjs on the runtime running this test and waits for its
 * "ready" line. On Deno it runs with only --allow-net and --allow-env, through
 * Deno.Command: node:child_process under Deno reports a child that exits 0
 * after handling SIGTERM as killed by the signal.
 * @param {string} id
 * @returns {Promise<App>}
 */
async function startApp(id) {
  const env = { ...process.env, SM_EXECUTOR_ID: id, SM_ROUTE: `${id}.example:8080` };
  /** @type {AppEvent[]} */
  const events = [];
  let stderr = "";
  let buffer = "";
  /** @param {string} chunk */
  const onStdout = (chunk) => {
    buffer += chunk;
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    for (const line of lines) events.push(JSON.parse(line));
  };
  /** @type {{ exited: Promise<number | null>, kill: () => void }} */
  let child;
  if ("Deno" in globalThis) {
    const spawned = new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-net", "--allow-env", APP],
      env,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const read = async (
      /** @type {ReadableStream<Uint8Array>} */ stream,
      /** @type {(s: string) => void} */ on,
    ) => {
      for await (const chunk of stream.pipeThrough(new TextDecoderStream())) on(chunk);
    };
    const reading = Promise.all([
      read(spawned.stdout, onStdout),
      read(spawned.stderr, (s) => stderr += s),
    ]);
    child = {
      exited: spawned.status.then(async (status) => (await reading, status.code)),
      kill: () => {
        try {
          spawned.kill("SIGTERM");
        } catch { /* exited already */ }
      },
    };
  } else {
    const spawned = spawn(process.execPath, [APP], { env, stdio: ["ignore", "pipe", "pipe"] });
    spawned.stdout.setEncoding("utf8").on("data", onStdout);
    spawned.stderr.setEncoding("utf8").on("data", (chunk) => stderr += chunk);
    child = {
      exited: new Promise((resolve) => spawned.on("close", (code) => resolve(code))),
      kill: () => void spawned.kill("SIGTERM"),
    };
  }
  const app = {
    events,
    stderr: () => stderr,
    exited: child.exited,
    stop: () => (child.kill(), child.exited),
  };
  await until(() => events.some((e) => e.event === "ready"), `${id} ready`, app);
  return app;
}

/**
 * Resolves once `check()` holds; fails after 20 s with `what` and the app's stderr.
 * @param {() => boolean} check
 * @param {string} what
 * @param {App} [app]
 */
async function until(check, what, app) {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`Timed out waiting for ${what}\n${app?.stderr() ?? ""}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test("an executor and a spectator from the SDK package, against a real service", async () => {
  assert.ok(ADDRESS && NAMESPACE && SHARDS.length > 0, "set SM_ADDRESS, SM_NAMESPACE, SM_SHARDS");
  const spectator = new Spectator({ addresses: ADDRESS, namespace: NAMESPACE });
  const a = await startApp("app-a");
  /** @type {App | undefined} */
  let b;
  try {
    await spectator.start({ timeoutMs: 20_000 });
    const routes = () => SHARDS.map((shard) => spectator.addressOf(shard));
    const started = (/** @type {App} */ app) =>
      new Set(app.events.filter((e) => e.event === "start").map((e) => e.shard));

    // The executor gets every shard, and the spectator routes each to it.
    await until(() => routes().every((r) => r === "app-a.example:8080"), "routes to app-a", a);
    await until(() => SHARDS.every((s) => started(a).has(s)), "app-a running every shard", a);

    // A second executor joins; SIGTERM drains the first: its shards move.
    b = await startApp("app-b");
    assert.equal(await a.stop(), 0, `app-a exit code\n${a.stderr()}`);
    const last = a.events.at(-1);
    assert.deepEqual([last?.event, last?.status, last?.running], ["exit", "DRAINED", []]);
    for (const shard of started(a)) {
      assert.ok(
        a.events.some((e) => e.event === "stop" && e.shard === shard),
        `app-a stopped ${shard}`,
      );
    }
    await until(() => routes().every((r) => r === "app-b.example:8080"), "routes to app-b", b);
    await until(
      () => SHARDS.every((s) => started(/** @type {App} */ (b)).has(s)),
      "app-b running every shard",
      b,
    );
    assert.equal(spectator.staleness().connected, true);

    // SIGTERM stops the last executor cleanly: it drains, stops its shards, exits 0.
    assert.equal(await b.stop(), 0, `app-b exit code\n${b.stderr()}`);
    assert.deepEqual(b.events.at(-1)?.status, "DRAINED");
    const stopped = b.events.filter((e) => e.event === "stop").map((e) => e.shard).sort();
    assert.deepEqual(stopped, [...started(b)].sort());
  } finally {
    a.stop();
    b?.stop();
    await Promise.all([a.exited, b?.exited]);
    await spectator.close();
  }
});
