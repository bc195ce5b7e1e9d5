/**
 * The chaos cluster's configuration: its namespaces (each exclusive or
 * available), its timings, and the YAML each service instance runs with.
 *
 * @module
 */
import type { NamespaceSpec } from "./events.ts";
import type { Timings } from "./bounds.ts";

/**
 * The namespace marked `ownership: exclusive` (unless the run is started with
 * `--available`, which leaves every namespace available for comparison).
 */
export const EXCLUSIVE_NAMESPACE = "chaos-x";

/** The other namespace, always available. */
export const AVAILABLE_NAMESPACE = "chaos-a";

/** Service and executor timings of a chaos run (short, so faults heal fast). */
export const CHAOS_TIMINGS = {
  heartbeatTTL: "3s",
  period: "500ms",
  electionTTL: "2s",
  failedElectionCooldown: "200ms",
  maxRandomDelay: "100ms",
  leaderPeriod: "20s",
  heartbeatIntervalMs: 500,
  heartbeatTimeoutMs: 1_000,
} as const;

/** {@linkcode CHAOS_TIMINGS} in the form `reassignmentBoundMs` takes. */
export const CHAOS_BOUND_TIMINGS: Timings = {
  heartbeatTTLMs: 3_000,
  periodMs: 500,
  electionTTLMs: 2_000,
  failedElectionCooldownMs: 200,
  maxRandomDelayMs: 100,
  heartbeatIntervalMs: CHAOS_TIMINGS.heartbeatIntervalMs,
  heartbeatTimeoutMs: CHAOS_TIMINGS.heartbeatTimeoutMs,
};

/**
 * The run's namespaces: two fixed ones of `shards` shards each.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chaosNamespaces } from "./config.ts";
 *
 * const [x] = chaosNamespaces({ exclusive: true, shards: 4 });
 * assert.equal(x!.ownership, "exclusive");
 * assert.equal(x!.shards.length, 4);
 * ```
 */
export function chaosNamespaces(options: { exclusive: boolean; shards: number }): NamespaceSpec[] {
  const { exclusive, shards } = options;
  if (!Number.isInteger(shards) || shards < 1 || shards > 1_000) {
    throw new RangeError(`shards must be an integer from 1 to 1000, got ${shards}`);
  }
  const keys = Array.from({ length: shards }, (_, i) => String(i));
  return [
    { name: EXCLUSIVE_NAMESPACE, ownership: exclusive ? "exclusive" : "available", shards: keys },
    { name: AVAILABLE_NAMESPACE, ownership: "available", shards: keys },
  ];
}

/** Where one instance listens and what it connects to. */
export interface InstanceConfig {
  readonly endpoints: readonly string[];
  readonly prefix: string;
  readonly grpcPort: number;
  readonly httpPort: number;
  /** The address to listen on (a network namespace's). @default {"127.0.0.1"} */
  readonly host?: string;
  readonly namespaces: readonly NamespaceSpec[];
  /** `shardDistribution.history.maxAge`, e.g. `"2m"`. @default {the service's default, 24h} */
  readonly historyMaxAge?: string | undefined;
}

/** The YAML of one service instance. */
export function chaosConfigYaml(config: InstanceConfig): string {
  const t = CHAOS_TIMINGS;
  const store = (prefix: string) => `
    storageParams:
      endpoints: ${JSON.stringify(config.endpoints)}
      dialTimeout: 1s
      prefix: ${JSON.stringify(prefix)}`;
  const namespaces = config.namespaces.map((n) =>
    JSON.stringify({
      name: n.name,
      type: "fixed",
      shardNum: n.shards.length,
      ...(n.ownership === "exclusive" ? { ownership: "exclusive" } : {}),
      ...(n.capacity === undefined ? {} : { executorCapacity: { shards: n.capacity } }),
    })
  );
  const history = config.historyMaxAge === undefined
    ? ""
    : `\n  history:\n    maxAge: ${config.historyMaxAge}`;
  return `shardDistribution:${history}
  election:
    leaderPeriod: ${t.leaderPeriod}
    maxRandomDelay: ${t.maxRandomDelay}
    failedElectionCooldown: ${t.failedElectionCooldown}
  namespaces:
${namespaces.map((n) => `    - ${n}`).join("\n")}
  leaderStore:${store(`${config.prefix}/leader`)}
      electionTTL: ${t.electionTTL}
  store:${store(`${config.prefix}/store`)}
  process:
    period: ${t.period}
    heartbeatTTL: ${t.heartbeatTTL}
    rebalanceCooldown: 50ms
server:
  grpcAddress: ${config.host ?? "127.0.0.1"}:${config.grpcPort}
  httpAddress: ${config.host ?? "127.0.0.1"}:${config.httpPort}
log:
  level: warn
`;
}
