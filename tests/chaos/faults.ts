/**
 * The faults of a chaos run: which kinds exist, a seeded schedule of them,
 * and how each is injected and healed on a {@linkcode ChaosCluster}.
 *
 * @module
 */
import type { ChaosCluster } from "./cluster.ts";
import { applyRules, clearRules, type NetRule } from "./nft.ts";
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
  if (kinds.length === 0) throw new RangeError("kinds must name at least one fault kind");
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
    const holdMs = long ? random.int(1_000, 6_000) : random.int(500, 3_000);
    if (kind !== "executor-oneway-loss") return { kind, targets, holdMs };
    return { kind, targets, holdMs, lost: random.pick(["heartbeats", "answers"] as const) };
  });
}

/** Injects `plan`, holds it, heals it. Resolves once healed. */
export async function runFault(
  cluster: ChaosCluster,
  recorder: Recorder,
  plan: FaultPlan,
): Promise<void> {
  const target = describeTargets(cluster, plan);
  const mark = (phase: "inject" | "heal") =>
    recorder.add({ type: "fault", at: Date.now(), kind: plan.kind, target, phase });
  const hold = () => new Promise((resolve) => setTimeout(resolve, plan.holdMs));
  const [first = 0, second = 1] = plan.targets;
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
}

/** Who a plan hits, e.g. `"service-1"`, `"etcd m0+m2"` or `"exec-2 (answers lost)"`. */
export function describeTargets(cluster: ChaosCluster, plan: FaultPlan): string {
  const [first = 0] = plan.targets;
  if (plan.kind.startsWith("etcd")) {
    return `etcd ${plan.targets.map((i) => cluster.etcd.members[i]!.name).join("+")}`;
  }
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

/** Starts a killed process again unless a crash restart already did. */
async function startAgain(process: Supervised): Promise<void> {
  if (!process.running) await process.start();
}
