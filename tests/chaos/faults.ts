/**
 * The faults of a chaos run: which kinds exist, a seeded schedule of them,
 * and how each is injected and healed on a {@linkcode ChaosCluster}.
 *
 * @module
 */
import type { ChaosCluster } from "./cluster.ts";
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
] as const;

/** One kind of fault. */
export type FaultKind = typeof FAULT_KINDS[number];

/** One planned fault: what, on which process(es), held for how long. */
export interface FaultPlan {
  readonly kind: FaultKind;
  /** Indexes of the targets (two etcd members for a quorum loss). */
  readonly targets: readonly number[];
  readonly holdMs: number;
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
export function faultSchedule(random: SeededRandom, count: number, processes = 3): FaultPlan[] {
  if (!Number.isInteger(count) || count < 0) {
    throw new RangeError(`count must be a non-negative integer, got ${count}`);
  }
  const script = random.shuffle(FAULT_KINDS);
  return Array.from({ length: count }, (_, i) => {
    const kind = i < script.length ? script[i]! : random.pick(FAULT_KINDS);
    const first = random.int(0, processes - 1);
    const targets = kind === "etcd-quorum-loss"
      ? [first, (first + random.int(1, processes - 1)) % processes]
      : [first];
    // Cut-offs and pauses sometimes outlast heartbeatTTL (3 s), so shards move.
    const long = kind === "executor-cutoff" || kind === "executor-pause" ||
      kind === "service-pause";
    const holdMs = long ? random.int(1_000, 6_000) : random.int(500, 3_000);
    return { kind, targets, holdMs };
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

/** Who a plan hits, e.g. `"service-1"` or `"etcd m0+m2"`. */
export function describeTargets(cluster: ChaosCluster, plan: FaultPlan): string {
  const [first = 0] = plan.targets;
  if (plan.kind.startsWith("etcd")) {
    return `etcd ${plan.targets.map((i) => cluster.etcd.members[i]!.name).join("+")}`;
  }
  if (plan.kind.startsWith("service")) return cluster.services[first]!.name;
  return cluster.executors[first]!.name;
}

/** Starts a killed process again unless a crash restart already did. */
async function startAgain(process: Supervised): Promise<void> {
  if (!process.running) await process.start();
}
