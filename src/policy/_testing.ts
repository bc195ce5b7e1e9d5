/**
 * Test helpers: a namespace policy from a configuration entry with the
 * default `process` settings and limits.
 *
 * @module
 */
import type { NamespaceConfig, ProcessConfig } from "../config/mod.ts";
import { type NamespacePolicy, namespacePolicy } from "./namespace_policy.ts";

/** The `process` defaults of the configuration schema. */
export const DEFAULT_PROCESS: ProcessConfig = {
  periodMs: 1_000,
  heartbeatTtlMs: 2_000,
  rebalanceCooldownMs: 100,
  maxMovesPerPass: 1_000,
};

/** The policy of `config` with default settings (and `process` overrides). */
export function policyOf(
  config: NamespaceConfig,
  process: Partial<ProcessConfig> = {},
): NamespacePolicy {
  return namespacePolicy(config, {
    process: { ...DEFAULT_PROCESS, ...process },
    limits: { maxEphemeralShards: 100_000 },
    maxReliedOn: 100,
  });
}
