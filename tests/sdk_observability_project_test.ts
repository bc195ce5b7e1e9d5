/**
 * The SDK's logs and metrics as an application sees them, on Deno and on
 * Node.js: a fresh project with `@opentelemetry/api` and
 * `@opentelemetry/sdk-metrics` from npm runs
 * tests/support/sdk_observability/observed_app.mjs against a real service on
 * a real etcd (Deno: its deno.json maps the two packages and the SDK is
 * imported by path; Node.js: the packed SDK and the two packages installed
 * with npm). The service stops for 3 s and comes back on the same port: the
 * executor's logger and the spectator's each get one warning when the outage
 * starts and one info line when it ends, the spectator's events say
 * disconnected, reconnecting and connected, and the OpenTelemetry meter (the
 * global one for the executor, an explicit one for the spectator) receives
 * every documented metric.
 *
 * The Node.js test needs `node` and `npm` (and the npm registry); without
 * them it is skipped, except under CI (`CI` set), where it fails.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { RunningInstance } from "../src/app.ts";
import { packSdk } from "../scripts/sdk_pack.ts";
import { SDK_CONFIG } from "../scripts/sdk_graph.ts";
import { denoBinary } from "./support/deno_bin.ts";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { freePort } from "./support/ports.ts";
import { runIn, sdkPathFrom } from "./support/sdk_project.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import { missingTools } from "./support/tools.ts";

const APP = new URL("./support/sdk_observability/observed_app.mjs", import.meta.url);
const SDK_IMPORT = '"../../../packages/sdk/mod.ts"';
const OTEL = {
  "@opentelemetry/api": "^1.10.0",
  "@opentelemetry/sdk-metrics": "^3.1.1",
};

interface Metric {
  readonly scope: string;
  readonly name: string;
  readonly unit: string;
  readonly points: { attributes: Record<string, unknown>; value: unknown }[];
}

/** What the app printed, and how it exited. */
interface Ran {
  readonly code: number;
  readonly lines: Record<string, unknown>[];
  readonly output: string;
}

/** Writes the app into `dir` as `app.mjs`, its SDK imports pointed at `sdk`. */
async function writeApp(dir: string, sdk: string): Promise<void> {
  const text = await Deno.readTextFile(APP);
  assert.ok(text.includes(SDK_IMPORT), "the app imports the SDK");
  await Deno.writeTextFile(join(dir, "app.mjs"), text.replaceAll(SDK_IMPORT, JSON.stringify(sdk)));
}

/** Runs the app; calls `onReady` when it prints `{ ready }`; resolves with its lines once it exits. */
async function runApp(
  dir: string,
  command: readonly string[],
  env: Record<string, string>,
  onReady: () => Promise<void>,
): Promise<Ran> {
  const child = new Deno.Command(command[0]!, {
    args: command.slice(1),
    cwd: dir,
    env: { NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  let output = "";
  const lines: Record<string, unknown>[] = [];
  let ready: Promise<void> | undefined;
  for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
    output += chunk;
    const complete = output.split("\n");
    for (const line of complete.slice(lines.length, -1)) {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      lines.push(parsed);
      if (parsed.ready === true) ready = onReady();
    }
  }
  await ready;
  const { code } = await child.status;
  return { code, lines, output: `${output}\n${await stderr}` };
}

/**
 * Runs `command` (the app, in `dir`) against a service that stops for 3 s
 * once the app is ready, then comes back on the same port; returns the app's
 * lines and the port.
 */
async function runThroughOutage(
  dir: string,
  command: readonly string[],
): Promise<{ ran: Ran; port: number }> {
  await using etcd = await startEtcd();
  const port = freePort();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("sdk-observability"),
    namespaces: [{ name: "orders", type: "fixed", shardNum: 4 }],
  }).replace("grpcAddress: 127.0.0.1:0", `grpcAddress: 127.0.0.1:${port}`);
  let instance: RunningInstance | undefined = await startInProcess(yaml);
  try {
    const env = { SM_ADDRESS: `127.0.0.1:${port}`, SM_NAMESPACE: "orders", SM_SHARDS: "4" };
    const ran = await runApp(dir, command, env, async () => {
      await instance?.stop();
      instance = undefined;
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      instance = await startInProcess(yaml);
    });
    assert.equal(ran.code, 0, `the app failed:\n${ran.output}`);
    return { ran, port };
  } finally {
    await instance?.stop();
  }
}

/** The logs, events and metrics every run must show. */
function checkObservations(ran: Ran, port: number): void {
  const logs = (component: string) =>
    ran.lines.filter((l) => l.component === component).map((l) => `${l.log}: ${l.message}`);
  const executorLogs = logs("executor");
  assert.equal(executorLogs.length, 2, `one line per outage edge:\n${executorLogs.join("\n")}`);
  assert.match(
    executorLogs[0]!,
    new RegExp(
      `^warn: Executor \\S+ heartbeats \\(namespace "orders"\\) failing at 127\\.0\\.0\\.1:${port} with (UNAVAILABLE|DEADLINE_EXCEEDED): `,
    ),
  );
  assert.match(
    executorLogs[1]!,
    /^info: .* succeed again at .* after \d+\.\d s and \d+ failed attempts$/,
  );
  const spectatorLogs = logs("spectator");
  assert.equal(spectatorLogs.length, 2, `one line per outage edge:\n${spectatorLogs.join("\n")}`);
  assert.match(
    spectatorLogs[0]!,
    /^warn: Spectator watch streams \(namespace "orders"\) failing at /,
  );
  assert.match(spectatorLogs[1]!, /^info: Spectator watch streams .* succeed again /);

  const events = ran.lines.filter((l) => "spectatorEvent" in l).map((l) => l.spectatorEvent);
  assert.deepEqual(
    [...new Set(events)],
    ["connected", "disconnected", "reconnecting"],
    `events: ${events.join(", ")}`,
  );
  assert.equal(events.at(-1), "connected");

  const [during, after] = ran.lines.filter((l) => "metrics" in l).map((l) => l.metrics as Metric[]);
  const find = (metrics: Metric[] | undefined, name: string) => {
    const found = metrics?.find((m) => m.name === name);
    assert.ok(found, `${name} in ${JSON.stringify(metrics?.map((m) => m.name))}`);
    return found;
  };
  const count = (metric: Metric) =>
    metric.points.reduce((n, p) => n + ((p.value as { count?: number }).count ?? 0), 0);
  const beats = find(during, "shard_manager.sdk.heartbeat.duration");
  assert.equal(beats.scope, "@shard-manager/sdk", "the global meter provider's meter");
  assert.equal(beats.unit, "s");
  assert.ok(count(beats) > 5, `heartbeats recorded: ${count(beats)}`);
  const buckets = (beats.points[0]?.value as { buckets?: { boundaries?: number[] } })?.buckets;
  assert.equal(buckets?.boundaries?.[0], 0.001, "bucket boundaries in seconds");
  const failures = find(during, "shard_manager.sdk.heartbeat.failures");
  assert.ok(failures.points.every((p) => p.attributes.namespace === "orders"));
  assert.ok(failures.points.some((p) => Number(p.value) >= 1));
  const running = find(during, "shard_manager.sdk.shards.running");
  assert.deepEqual(running.points.map((p) => p.value), [4]);
  assert.equal(count(find(during, "shard_manager.sdk.processor.start.duration")), 4);
  const reconnects = find(during, "shard_manager.sdk.spectator.reconnects");
  assert.equal(reconnects.scope, "orders-app", "the spectator's explicit meter");
  assert.ok(reconnects.points.some((p) => Number(p.value) >= 1));
  assert.deepEqual(
    find(during, "shard_manager.sdk.spectator.staleness").points.map((p) => p.value),
    [0],
  );
  assert.ok(count(find(after, "shard_manager.sdk.processor.stop.duration")) >= 4);
}

Deno.test("Deno: an outage logs one line when it starts and one when it ends, and an OpenTelemetry meter gets the SDK's metrics", async () => {
  const dir = await Deno.makeTempDir({ prefix: "sm-sdk-obs-deno-" });
  try {
    const imports = Object.fromEntries(
      Object.entries(OTEL).map(([name, range]) => [name, `npm:${name}@${range}`]),
    );
    await Deno.writeTextFile(join(dir, "deno.json"), JSON.stringify({ imports }, null, 2));
    await writeApp(dir, sdkPathFrom(dir, "mod.ts"));
    const checked = await runIn(dir, denoBinary(), ["check", "app.mjs"]);
    assert.equal(checked.code, 0, `deno check failed:\n${checked.output}`);
    const command = [denoBinary(), "run", "--allow-net", "--allow-env", "app.mjs"];
    const { ran, port } = await runThroughOutage(dir, command);
    checkObservations(ran, port);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const missing = missingTools(["node", "npm"]);

Deno.test({
  name:
    "Node.js: an outage logs one line when it starts and one when it ends, and an OpenTelemetry meter gets the SDK's metrics" +
    (missing.length > 0 ? ` (skipped: ${missing.join(" and ")} not found)` : ""),
  ignore: missing.length > 0 && !Deno.env.get("CI"),
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "sm-sdk-obs-node-" });
    try {
      const { tarball } = await packSdk(dir, false);
      const project = join(dir, "app");
      await Deno.mkdir(project);
      await Deno.writeTextFile(
        join(project, "package.json"),
        JSON.stringify({ name: "orders-app", private: true, type: "module" }, null, 2),
      );
      const packages = Object.entries(OTEL).map(([name, range]) => `${name}@${range}`);
      const installed = await runIn(project, "npm", [
        "install",
        "--no-audit",
        "--no-fund",
        tarball,
        ...packages,
      ]);
      assert.equal(installed.code, 0, `npm install failed:\n${installed.output}`);
      await writeApp(project, SDK_CONFIG.name);
      const { ran, port } = await runThroughOutage(project, ["node", "app.mjs"]);
      checkObservations(ran, port);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
