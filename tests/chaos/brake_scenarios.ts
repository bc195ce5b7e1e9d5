/**
 * Issue 41's brake scenarios of the chaos harness (`deno task chaos
 * --scenario mass-loss|rolling-deploy`), on 10 executor processes and the
 * usual 3 instances and 3 etcd members:
 *
 * - `mass-loss`: 6 of the 10 executors are frozen at once (SIGSTOP: they stop
 *   heartbeating, as in a deadlock), with `executorCapacity: { shards: 6 }`
 *   and 40 shards per namespace. Goals: no executor ever holds more than its
 *   capacity; the 16 shards per namespace that do not fit are reported
 *   unowned within one pass of the executors going stale; when the 6 return
 *   (SIGCONT), everything is owned again within one settling window, with no
 *   more owner changes than shards were unowned.
 * - `rolling-deploy`: a deploy tool replaces the 10 executors in batches of
 *   3, 3, 3 and 1, asking `CanStopExecutors` before each batch, stopping it
 *   gracefully (SIGTERM: the SDK drains) and starting the new version at
 *   once, and asking about the next batch as soon as the service sees the
 *   batch leaving. Goals: no shard without an owner in any picture the
 *   service published; no batch waits longer than the previous batch's
 *   handover took (plus a heartbeat's slack).
 *
 * Ownership is read from the service's pictures (a `WatchNamespaceState` of
 * each namespace), the same state `sm_shards_unowned` reports.
 *
 * @module
 */
import { call, type Clients, connect } from "../support/grpc_clients.ts";
import type {
  CanStopExecutorsResponse__Output,
  GetNamespaceStateResponse__Output,
  WatchNamespaceStateResponse__Output,
} from "../../src/wire/proto.ts";
import { ChaosCluster } from "./cluster.ts";
import { CHAOS_BOUND_TIMINGS, chaosNamespaces } from "./config.ts";
import type { NamespaceSpec } from "./events.ts";
import { Recorder } from "./recorder.ts";

/** The scenarios of this file. */
export const BRAKE_SCENARIOS = ["mass-loss", "rolling-deploy"] as const;

/** What a brake scenario found: named figures, and whether each goal held. */
export interface BrakeScenarioReport {
  readonly scenario: typeof BRAKE_SCENARIOS[number];
  readonly executors: number;
  readonly shards: number;
  /** Figures, in the order printed. */
  readonly figures: readonly (readonly [string, string | number])[];
  /** Goals that failed, in words (empty: passed). */
  readonly failures: readonly string[];
  readonly passed: boolean;
  readonly outDir: string;
}

const EXECUTORS = 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Follows the service's pictures of the namespaces: owners, most held, changes, unowned. */
class Pictures {
  readonly #owners = new Map<string, Map<string, string>>();
  readonly #streams: { cancel(): void }[] = [];
  #most = new Map<string, number>();
  #changes = 0;
  /** Most shards without an owner in any one picture since the last reset. */
  mostUnowned = 0;

  constructor(clients: Clients, readonly namespaces: readonly NamespaceSpec[]) {
    for (const ns of namespaces) {
      this.#owners.set(ns.name, new Map());
      const stream = clients.api.watchNamespaceState({ namespace: ns.name, acceptDeltas: false });
      stream.on("data", (m: WatchNamespaceStateResponse__Output) => this.#apply(ns, m));
      stream.on("error", () => {});
      this.#streams.push(stream);
    }
  }

  #apply(ns: NamespaceSpec, picture: WatchNamespaceStateResponse__Output): void {
    const owners = this.#owners.get(ns.name)!;
    const next = new Map<string, string>();
    for (const e of picture.executors) {
      for (const s of e.shards) next.set(s.shardKey, e.executorId);
      const key = `${ns.name}/${e.executorId}`;
      this.#most.set(key, Math.max(this.#most.get(key) ?? 0, e.shards.length));
    }
    for (const [shard, owner] of next) if (owners.get(shard) !== owner) this.#changes++;
    owners.clear();
    for (const [shard, owner] of next) owners.set(shard, owner);
    this.mostUnowned = Math.max(this.mostUnowned, ns.shards.length - next.size);
  }

  /** Shards without an owner now, over every namespace. */
  unowned(): number {
    return this.namespaces.reduce(
      (n, ns) => n + ns.shards.length - this.#owners.get(ns.name)!.size,
      0,
    );
  }
  /** Shards each executor holds now, as `namespace/executor`. */
  held(): Map<string, number> {
    const held = new Map<string, number>();
    for (const [ns, owners] of this.#owners) {
      for (const owner of owners.values()) {
        held.set(`${ns}/${owner}`, (held.get(`${ns}/${owner}`) ?? 0) + 1);
      }
    }
    return held;
  }
  /** The most any executor held in one picture since the last reset. */
  most(): number {
    return Math.max(0, ...this.#most.values());
  }
  changes(): number {
    return this.#changes;
  }
  reset(): void {
    this.#most = new Map();
    this.#changes = 0;
    this.mostUnowned = 0;
  }
  close(): void {
    for (const s of this.#streams) s.cancel();
  }
}

async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
): Promise<number | null> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (await check()) return Date.now() - start;
    await sleep(50);
  }
  return null;
}

/** Runs `scenario` once. */
export async function runBrakeScenario(
  scenario: typeof BRAKE_SCENARIOS[number],
  options: { readonly outDir?: string; log?: (line: string) => void } = {},
): Promise<BrakeScenarioReport> {
  const log = options.log ?? (() => {});
  const outDir = options.outDir ?? await Deno.makeTempDir({ prefix: `chaos-${scenario}-` });
  await Deno.mkdir(outDir, { recursive: true });
  const shards = 40;
  const capacity = scenario === "mass-loss" ? 6 : undefined;
  const namespaces = chaosNamespaces({ exclusive: true, shards })
    .map((ns) => capacity === undefined ? ns : { ...ns, capacity });
  const recorder = new Recorder(`${outDir}/events.jsonl`);
  log(`chaos scenario ${scenario}: ${EXECUTORS} executors, ${shards} shards per namespace`);
  const cluster = await ChaosCluster.start({
    namespaces,
    recorder,
    dir: outDir,
    executors: EXECUTORS,
  });
  const clients = connect(cluster.serviceAddresses[0]!);
  const pictures = new Pictures(clients, namespaces);
  const figures: [string, string | number][] = [];
  const failures: string[] = [];
  try {
    const balanced = await waitFor(
      () => pictures.unowned() === 0 && [...pictures.held().values()].every((n) => n === 4),
      90_000,
    );
    if (balanced === null) throw new Error("the fleet never settled at 4 shards per executor");
    if (scenario === "mass-loss") {
      await massLoss(cluster, recorder, pictures, capacity!, figures, failures, log);
    } else {
      await rollingDeploy(cluster, clients, pictures, figures, failures, log);
    }
  } finally {
    pictures.close();
    clients.close();
    await cluster.close().catch(() => {});
    recorder.close();
  }
  const report: BrakeScenarioReport = {
    scenario,
    executors: EXECUTORS,
    shards,
    figures,
    failures,
    passed: failures.length === 0,
    outDir,
  };
  await Deno.writeTextFile(`${outDir}/results.json`, JSON.stringify(report, null, 2) + "\n");
  return report;
}

async function massLoss(
  cluster: ChaosCluster,
  recorder: Recorder,
  pictures: Pictures,
  capacity: number,
  figures: [string, string | number][],
  failures: string[],
  log: (line: string) => void,
): Promise<void> {
  const t = CHAOS_BOUND_TIMINGS;
  const lost = cluster.executors.slice(0, 6);
  const expectUnowned = pictures.namespaces.length * (40 - 4 * capacity);
  pictures.reset();
  const stoppedAt = Date.now();
  for (const p of lost) {
    recorder.add({ type: "pause", at: Date.now(), process: p.name });
    p.signal("SIGSTOP");
  }
  log("  froze 6 of 10 executors");
  const reported = await waitFor(() => pictures.unowned() === expectUnowned, 30_000);
  // Stale one TTL after their last heartbeat (up to one interval before the freeze), then a pass.
  const boundMs = t.heartbeatTTLMs + 2 * t.periodMs;
  figures.push(["unowned shards reported after", reported === null ? "NEVER" : `${reported} ms`]);
  figures.push(["  bound: heartbeatTTL + 2 passes", `${boundMs} ms`]);
  figures.push(["unowned shards (both namespaces)", pictures.unowned()]);
  if (reported === null) failures.push(`${expectUnowned} unowned shards never reported`);
  else if (reported > boundMs + 1_000) failures.push(`unowned reported after ${reported} ms`);
  // Hold: passes keep running, the survivors take nothing more.
  await sleep(5_000);
  const unowned = pictures.unowned();
  figures.push(["unowned after holding 5 s", unowned]);
  if (unowned !== expectUnowned) {
    failures.push(`${unowned} unowned after 5 s, not ${expectUnowned}`);
  }
  const mostDuring = pictures.most();
  pictures.reset();
  const returnedAt = Date.now();
  for (const p of lost) {
    p.signal("SIGCONT");
    recorder.add({ type: "resume", at: Date.now(), process: p.name });
  }
  log("  the 6 returned");
  const owned = await waitFor(() => pictures.unowned() === 0, 30_000);
  // The namespaces' default settling window: balancing waits for it after the return (a join).
  const settleMs = 3_000;
  await sleep(Math.max(0, settleMs - 500 - (Date.now() - returnedAt)));
  const changes = pictures.changes();
  // Then the balancing the settling window held back (not part of the goal, reported).
  await sleep(5_000);
  const most = Math.max(mostDuring, pictures.most());
  figures.push(["most shards held by one executor", `${most} (capacity ${capacity})`]);
  figures.push(["all owned again after the return", owned === null ? "NEVER" : `${owned} ms`]);
  figures.push(["  goal: within the settling window", `${settleMs} ms`]);
  figures.push(["owner changes in the settling window", `${changes} (unowned ${unowned})`]);
  figures.push(["balancing moves after it", pictures.changes() - changes]);
  figures.push(["time frozen", `${returnedAt - stoppedAt} ms`]);
  if (most > capacity) failures.push(`an executor held ${most} shards, above ${capacity}`);
  if (owned === null || owned > settleMs) failures.push(`all owned again after ${owned} ms`);
  if (changes > unowned) failures.push(`${changes} owner changes for ${unowned} unowned shards`);
}

async function rollingDeploy(
  cluster: ChaosCluster,
  clients: Clients,
  pictures: Pictures,
  figures: [string, string | number][],
  failures: string[],
  log: (line: string) => void,
): Promise<void> {
  const batches = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]];
  const slackMs = 2 * CHAOS_BOUND_TIMINGS.heartbeatIntervalMs + 500;
  const idsOf = (batch: number[]) =>
    batch.map((i) => `${cluster.executors[i]!.name}.${cluster.executors[i]!.generation}`);
  pictures.reset();
  let handedOver: Promise<number | null> | undefined;
  const restarts: Promise<unknown>[] = [];
  for (const [n, batch] of batches.entries()) {
    const ids = idsOf(batch);
    const asked = Date.now();
    let asks = 0;
    for (;;) {
      asks++;
      const answer = await call<unknown, CanStopExecutorsResponse__Output>(
        clients.api,
        "canStopExecutors",
        { executorIds: ids },
      );
      if (answer.allowed) break;
      if (Date.now() - asked > 120_000) throw new Error(`batch ${n + 1} never allowed to stop`);
      await sleep(100);
    }
    const waited = Date.now() - asked;
    // This batch may wait as long as the last batch's handover took (it started before).
    const previous = await handedOver;
    const row = `batch ${n + 1} (${batch.length}): waited, last handover`;
    figures.push([row, `${waited} ms (${asks} asks), ${previous ?? "-"} ms`]);
    if (previous !== undefined && previous !== null && waited > previous + slackMs) {
      failures.push(`batch ${n + 1} waited ${waited} ms, the last handover took ${previous} ms`);
    }
    log(`  batch ${n + 1}: allowed after ${waited} ms`);
    const stopped = Date.now();
    // Stop the batch gracefully and start the new version as soon as each old one exited.
    for (const i of batch) {
      const process = cluster.executors[i]!;
      restarts.push(process.kill("SIGTERM", 30_000).then(() => process.start()));
    }
    handedOver = waitFor(() => {
      const held = pictures.held();
      return ids.every((id) => pictures.namespaces.every((ns) => !held.has(`${ns.name}/${id}`)));
    }, 60_000).then((ms) => ms === null ? null : Date.now() - stopped);
    // Ask about the next batch once the service sees this one leaving (DRAINING, or gone).
    await waitFor(async () => {
      for (const ns of pictures.namespaces) {
        const state = await call<unknown, GetNamespaceStateResponse__Output>(
          clients.api,
          "getNamespaceState",
          { namespace: ns.name },
        );
        const active = state.executors.filter((e) =>
          ids.includes(e.executorId) && e.status === "EXECUTOR_STATUS_ACTIVE"
        );
        if (active.length > 0) return false;
      }
      return true;
    }, 60_000);
  }
  const last = await handedOver;
  figures.push(["last batch handed over in", `${last ?? "NEVER"} ms`]);
  await Promise.all(restarts);
  await waitFor(() => pictures.unowned() === 0, 30_000);
  figures.push(["most shards unowned in any picture", pictures.mostUnowned]);
  figures.push(["owner changes during the deploy", pictures.changes()]);
  if (pictures.mostUnowned > 0) {
    failures.push(`${pictures.mostUnowned} shards without an owner in some picture`);
  }
}
