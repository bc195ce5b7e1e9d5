/**
 * The faults of a chaos run: which kinds exist, a seeded schedule of them,
 * and how each is injected and healed on a {@linkcode ChaosCluster}.
 *
 * @module
 */
import type { ChaosCluster } from "./cluster.ts";
import { applyRules, clearRules, type NetRule } from "./nft.ts";
import { faketimeEnv, stepClock } from "../support/faketime.ts";
import { EXCLUSIVE_NAMESPACE } from "./config.ts";
import { leadersAt, watchLeadership } from "./leaders.ts";
import { type LinkLoad, sampleLinks } from "./link_load.ts";
import { SLOW_LOSSY_LINK } from "./link_faults.ts";
import type { SeededRandom } from "./random.ts";
import type { Recorder } from "./recorder.ts";
import type { Supervised } from "./supervised.ts";

/** Every kind of fault the harness injects. */
export const FAULT_KINDS = [
  "service-sigkill",
  "service-sigterm",
  "service-pause",
  "etcd-member-kill",
  "etcd-quorum-loss",
  "executor-sigkill",
  "executor-cutoff",
  "executor-pause",
  "instance-etcd-partition",
  "executor-oneway-loss",
  "etcd-member-isolated",
  "slow-lossy-links",
  "clock-step",
  "clock-drift",
] as const;

/** One kind of fault. */
export type FaultKind = typeof FAULT_KINDS[number];

/** The kinds that cut real links: they need the cluster in network namespaces. */
export const NETWORK_FAULT_KINDS: readonly FaultKind[] = [
  "instance-etcd-partition",
  "executor-oneway-loss",
  "etcd-member-isolated",
];

/**
 * Parses `--kinds a,b,c` into fault kinds.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseFaultKinds } from "./faults.ts";
 *
 * assert.deepEqual(parseFaultKinds("service-pause, etcd-member-isolated"), [
 *   "service-pause",
 *   "etcd-member-isolated",
 * ]);
 * assert.throws(() => parseFaultKinds("service-nap"), /service-nap/);
 * ```
 */
export function parseFaultKinds(text: string): FaultKind[] {
  const kinds = text.split(",").map((k) => k.trim()).filter((k) => k !== "");
  const unknown = kinds.filter((k) => !(FAULT_KINDS as readonly string[]).includes(k));
  if (kinds.length === 0 || unknown.length > 0) {
    throw new RangeError(
      `--kinds must be a comma-separated list of ${FAULT_KINDS.join(", ")}, got ${
        JSON.stringify(text)
      }`,
    );
  }
  return [...new Set(kinds as FaultKind[])];
}

/** One planned fault: what, on which process(es), held for how long. */
export interface FaultPlan {
  readonly kind: FaultKind;
  /** Indexes of the targets (two etcd members for a quorum loss). */
  readonly targets: readonly number[];
  readonly holdMs: number;
  /** `executor-oneway-loss` only: whether the heartbeats or their answers are lost. */
  readonly lost?: "heartbeats" | "answers";
  /** Clock faults: the target instance's libfaketime spec, e.g. `"-30s"` or `"+0 x1.01"`. */
  readonly clock?: string;
}

/** What the harness saw during a fault, for kinds that measure something. */
export interface FaultEffects {
  /** `slow-lossy-links`: the calls each executor had through its proxies, before and during. */
  readonly links?: LinkLoad;
  /** Clock faults: the namespaces the instance with the wrong clock led meanwhile. */
  readonly led?: readonly string[];
  /** The process(es) actually hit, when chosen at injection (`clock-step`: the leader). */
  readonly target?: string;
}

/**
 * `count` faults: first every kind once in a seeded order (the script, so even
 * a short run covers each), then kinds picked at random.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FAULT_KINDS, faultSchedule } from "./faults.ts";
 * import { SeededRandom } from "./random.ts";
 *
 * const plans = faultSchedule(new SeededRandom(7), FAULT_KINDS.length, 3);
 * assert.equal(new Set(plans.map((p) => p.kind)).size, FAULT_KINDS.length);
 * ```
 */
export function faultSchedule(
  random: SeededRandom,
  count: number,
  processes = 3,
  kinds: readonly FaultKind[] = FAULT_KINDS,
): FaultPlan[] {
  if (!Number.isInteger(count) || count < 0) {
    throw new RangeError(`count must be a non-negative integer, got ${count}`);
  }
  const unknown = kinds.filter((k) => !FAULT_KINDS.includes(k));
  if (kinds.length === 0 || unknown.length > 0) {
    throw new RangeError(
      `kinds must be some of ${FAULT_KINDS.join(", ")}, got ${JSON.stringify(kinds)}`,
    );
  }
  const script = random.shuffle(kinds);
  return Array.from({ length: count }, (_, i) => {
    const kind = i < script.length ? script[i]! : random.pick(kinds);
    const first = random.int(0, processes - 1);
    const targets = kind === "etcd-quorum-loss"
      ? [first, (first + random.int(1, processes - 1)) % processes]
      : [first];
    // Cut-offs and pauses sometimes outlast heartbeatTTL (3 s), so shards move.
    const long = kind === "executor-cutoff" || kind === "executor-pause" ||
      kind === "service-pause" || NETWORK_FAULT_KINDS.includes(kind);
    if (kind === "clock-step" || kind === "clock-drift") {
      // Held long enough for the instance to lead (leadership rotates every 20 s) or serve a while.
      const holdMs = random.int(8_000, 20_000);
      const clock = kind === "clock-drift" ? "+0 x1.01" : random.pick(["+30s", "-30s"]);
      return { kind, targets, holdMs, clock };
    }
    if (kind === "slow-lossy-links") {
      return { kind, targets: [], holdMs: random.int(4_000, 10_000) };
    }
    const holdMs = long ? random.int(1_000, 6_000) : random.int(500, 3_000);
    if (kind !== "executor-oneway-loss") return { kind, targets, holdMs };
    return { kind, targets, holdMs, lost: random.pick(["heartbeats", "answers"] as const) };
  });
}

/** Injects `plan`, holds it, heals it. Resolves once healed, with what it measured. */
export async function runFault(
  cluster: ChaosCluster,
  recorder: Recorder,
  plan: FaultPlan,
): Promise<FaultEffects> {
  const effects: { links?: LinkLoad; led?: string[]; target?: string } = {};
  const [first = 0, second = 1] = plan.targets;
  // clock-step hits the exclusive namespace's leader when there is one (else the planned instance).
  const stepped = plan.kind === "clock-step" ? await leaderIndex(cluster) ?? first : first;
  const target = plan.kind === "clock-step"
    ? `${cluster.services[stepped]!.name} ${plan.clock}`
    : describeTargets(cluster, plan);
  const mark = (phase: "inject" | "heal") =>
    recorder.add({ type: "fault", at: Date.now(), kind: plan.kind, target, phase });
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const hold = () => sleep(plan.holdMs);
  // Slow links: a second of the calls in flight before, to compare with those during.
  const sampling = plan.kind === "slow-lossy-links" ? sampleLinks(cluster.proxies) : undefined;
  await sampling?.baseline(1_000);
  mark("inject");
  switch (plan.kind) {
    case "service-sigkill":
    case "service-sigterm": {
      const service = cluster.services[first]!;
      await service.kill(plan.kind === "service-sigkill" ? "SIGKILL" : "SIGTERM");
      await hold();
      await startAgain(service);
      break;
    }
    case "executor-sigkill": {
      const executor = cluster.executors[first]!;
      await executor.kill("SIGKILL");
      await hold();
      await startAgain(executor);
      break;
    }
    case "service-pause":
    case "executor-pause": {
      const process = plan.kind === "service-pause"
        ? cluster.services[first]!
        : cluster.executors[first]!;
      if (!process.running) break;
      recorder.add({ type: "pause", at: Date.now(), process: process.name });
      process.signal("SIGSTOP");
      await hold();
      process.signal("SIGCONT");
      recorder.add({ type: "resume", at: Date.now(), process: process.name });
      break;
    }
    case "executor-cutoff": {
      const proxies = cluster.proxies[first]!;
      for (const proxy of proxies) proxy.cut();
      await hold();
      for (const proxy of proxies) proxy.restore();
      break;
    }
    case "slow-lossy-links": {
      // Every executor-instance link slow, jittery and lossy at once (link_faults.ts).
      const all = cluster.proxies.flat();
      for (const proxy of all) proxy.degrade(SLOW_LOSSY_LINK);
      sampling?.during();
      await hold();
      for (const proxy of all) proxy.heal();
      if (sampling) effects.links = sampling.stop();
      break;
    }
    case "clock-step": {
      // A running instance's wall clock steps (as NTP does), holds; it is restarted with the
      // clock still off (its cache is loaded with it), holds; the clock steps back.
      const service = cluster.services[stepped]!;
      effects.target = target;
      const file = cluster.clockFiles[stepped];
      if (file === undefined) throw new Error("clock-step needs a cluster with steppableClocks");
      const watching = new AbortController();
      const led = watchLeadership(cluster.serviceAddresses, `${service.name}.`, watching.signal);
      stepClock(file, plan.clock ?? "+30s");
      await sleep(plan.holdMs / 2);
      await service.kill("SIGTERM");
      await startAgain(service);
      await sleep(plan.holdMs / 2);
      stepClock(file, "+0");
      await sleep(1_000); // libfaketime reads the file once a second
      watching.abort();
      effects.led = await led;
      break;
    }
    case "clock-drift": {
      // Restarted with a clock (timers included) 1% fast, held, then restarted with the real one.
      // The other instances are restarted after it (gracefully), so that it is the oldest
      // candidate of every election and leads: a restarted instance waits at the back.
      const service = cluster.services[first]!;
      const env = faketimeEnv(plan.clock ?? "+0 x1.01");
      await service.kill("SIGTERM");
      await service.start({ env });
      for (const other of cluster.services.filter((s) => s !== service)) {
        await other.kill("SIGTERM");
        await startAgain(other);
      }
      const watching = new AbortController();
      const led = watchLeadership(cluster.serviceAddresses, `${service.name}.`, watching.signal);
      await hold();
      watching.abort();
      effects.led = await led;
      await service.kill("SIGTERM");
      await startAgain(service);
      break;
    }
    case "etcd-member-kill": {
      const member = cluster.etcd.members[first]!;
      await member.kill("SIGKILL");
      await hold();
      await member.start();
      break;
    }
    case "instance-etcd-partition":
    case "executor-oneway-loss":
    case "etcd-member-isolated": {
      const { netns, rules } = networkFault(cluster, plan);
      await applyRules(netns, rules);
      try {
        await hold();
      } finally {
        await clearRules(netns);
      }
      break;
    }
    case "etcd-quorum-loss": {
      const a = cluster.etcd.members[first]!;
      const b = cluster.etcd.members[second]!;
      await a.kill("SIGKILL");
      recorder.add({ type: "quorum", at: Date.now(), available: false });
      await b.kill("SIGKILL");
      await hold();
      await a.start(); // healthy needs a quorum: a and the survivor
      recorder.add({ type: "quorum", at: Date.now(), available: true });
      await b.start();
      break;
    }
  }
  mark("heal");
  return effects;
}

/** Who a plan hits, e.g. `"service-1"`, `"etcd m0+m2"` or `"exec-2 (answers lost)"`. */
export function describeTargets(cluster: ChaosCluster, plan: FaultPlan): string {
  const [first = 0] = plan.targets;
  if (plan.kind.startsWith("etcd")) {
    return `etcd ${plan.targets.map((i) => cluster.etcd.members[i]!.name).join("+")}`;
  }
  if (plan.kind === "slow-lossy-links") return "all links";
  if (plan.kind.startsWith("clock")) return `${cluster.services[first]!.name} ${plan.clock}`;
  if (plan.kind.startsWith("service") || plan.kind.startsWith("instance")) {
    return cluster.services[first]!.name;
  }
  const lost = plan.lost === undefined ? "" : ` (${plan.lost} lost)`;
  return `${cluster.executors[first]!.name}${lost}`;
}

/** The namespace a network fault filters in, and its rules (seen from that namespace). */
function networkFault(cluster: ChaosCluster, plan: FaultPlan): { netns: string; rules: NetRule[] } {
  const nodes = cluster.network.nodes;
  if (nodes === undefined) {
    throw new Error(`${plan.kind} needs the cluster in network namespaces`);
  }
  const [first = 0] = plan.targets;
  const etcd = nodes.etcd.map((n) => n.address);
  switch (plan.kind) {
    case "instance-etcd-partition":
      // Cut from every etcd member; executors and spectators still reach it.
      return { netns: nodes.services[first]!.netns, rules: [{ kind: "partition", peers: etcd }] };
    case "etcd-member-isolated": {
      // Cut from its peers; the instances still reach it.
      const member = nodes.etcd[first]!;
      const peers = etcd.filter((a) => a !== member.address);
      return { netns: member.netns, rules: [{ kind: "partition", peers }] };
    }
    default: {
      // Executors reach the instances through the proxies at the gateway.
      const peers = [cluster.network.proxyHost];
      const rule: NetRule = plan.lost === "answers"
        ? { kind: "drop-in", peers }
        : { kind: "drop-out", peers };
      return { netns: nodes.executors[first]!.netns, rules: [rule] };
    }
  }
}

/** The index of the instance leading the exclusive namespace (else any), if one answers. */
async function leaderIndex(cluster: ChaosCluster): Promise<number | undefined> {
  for (const address of cluster.serviceAddresses) {
    try {
      const leaders = await leadersAt(address);
      const id = leaders.get(EXCLUSIVE_NAMESPACE) ?? [...leaders.values()][0];
      const index = cluster.services.findIndex((s) => id?.startsWith(`${s.name}.`));
      return index < 0 ? undefined : index;
    } catch { /* restarting: ask another */ }
  }
  return undefined;
}

/** Starts a killed process again unless a crash restart already did. */
async function startAgain(process: Supervised): Promise<void> {
  if (!process.running) await process.start();
}
