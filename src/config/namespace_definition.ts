/**
 * A namespace definition as data: one entry of `shardDistribution.namespaces`
 * written as YAML (or JSON), read with the same schema as the file (so the
 * same fields, defaults and errors naming the field), and written back in the
 * form it was read from.
 *
 * @module
 */
import { stringify } from "yaml";
import { parseYaml } from "./_parse_yaml.ts";
import { formatDuration } from "../shared/duration.ts";
import { namespaceSchema } from "./namespace_schema.ts";
import type { NamespaceConfig } from "./namespace_types.ts";

import type { NamespaceSpec } from "./namespace_types.ts";

export type { NamespaceSpec } from "./namespace_types.ts";

/** A parsed definition: the validated configuration and the data it was read from. */
export interface NamespaceDefinitionInput {
  /** What the service runs. */
  readonly config: NamespaceConfig;
  /** What was written, to store and to print back. */
  readonly spec: NamespaceSpec;
}

/**
 * Parses one namespace definition; throws `ConfigError` naming each wrong
 * field, e.g. `shardNum: expected an integer from 1 to 10000000, got 0`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseNamespaceDefinition } from "./namespace_definition.ts";
 *
 * const { config, spec } = parseNamespaceDefinition("name: orders\ntype: fixed\nshardNum: 8\n");
 * assert.equal(config.kind, "fixed");
 * assert.deepEqual(spec, { name: "orders", type: "fixed", shardNum: 8 });
 * assert.throws(() => parseNamespaceDefinition("name: o\ntype: fixed\n"), /shardNum: required/);
 * ```
 */
export function parseNamespaceDefinition(text: string, source?: string): NamespaceDefinitionInput {
  const { value, data } = parseYaml(namespaceSchema, text, {
    what: "namespace definition",
    ...(source === undefined ? {} : { source }),
  });
  return { config: value, spec: data as NamespaceSpec };
}

/**
 * The definition of `config` as data that {@linkcode parseNamespaceDefinition}
 * reads back into the same configuration, written out from its fields (for a
 * configuration built in code; one read from text keeps the data it was read
 * from: `NamespaceDefinitionInput.spec`, `ShardDistributionConfig.namespaceSpecs`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { namespaceSpec } from "./namespace_definition.ts";
 *
 * const spec = namespaceSpec({
 *   kind: "fixed", name: "o", shardNum: 2, loadBalancer: "naive",
 *   ownership: { mode: "exclusive", leaseMs: 5_000 },
 * });
 * assert.deepEqual(spec, {
 *   name: "o", type: "fixed", shardNum: 2, loadBalancer: "naive",
 *   ownership: "exclusive", ownershipLease: "5s",
 * });
 * ```
 */
export function namespaceSpec(config: NamespaceConfig): NamespaceSpec {
  if (config.kind === "cells") {
    return {
      name: config.name,
      type: "ephemeral",
      mode: "cells",
      ...(config.maxShards === undefined ? {} : { maxShards: config.maxShards }),
      ...(Object.keys(config.pins).length === 0 ? {} : { pins: config.pins }),
    };
  }
  if (config.kind === "range") {
    return {
      name: config.name,
      type: "range",
      range: config.range,
      ...(config.zoneKey === "zone" ? {} : { zoneKey: config.zoneKey }),
      ...(config.prepareTimeoutMs === undefined
        ? {}
        : { prepareTimeout: formatDuration(config.prepareTimeoutMs) }),
      ...(config.maxPreparesPerExecutor === undefined
        ? {}
        : { maxPreparesPerExecutor: config.maxPreparesPerExecutor }),
      ...(config.ownership
        ? {
          ownership: "exclusive",
          ...(config.ownership.leaseMs === undefined
            ? {}
            : { ownershipLease: formatDuration(config.ownership.leaseMs) }),
        }
        : {}),
    };
  }
  const replication = config.replication;
  return {
    name: config.name,
    type: config.kind,
    ...(config.kind === "fixed" ? { shardNum: config.shardNum } : {}),
    ...(config.kind === "ephemeral" && config.maxShards !== undefined
      ? { maxShards: config.maxShards }
      : {}),
    ...(replication ? {} : { loadBalancer: config.loadBalancer }),
    ...(config.maxMovesPerPass === undefined ? {} : { maxMovesPerPass: config.maxMovesPerPass }),
    ...churnSpec(config),
    ...(config.ownership.mode === "exclusive"
      ? {
        ownership: "exclusive",
        ...(config.ownership.leaseMs === undefined
          ? {}
          : { ownershipLease: formatDuration(config.ownership.leaseMs) }),
      }
      : {}),
    ...(replication
      ? {
        replicas: replication.replicas,
        zoneKey: replication.zoneKey,
        placement: replication.placement,
        ...(replication.placement === "shuffle" ? { maxOverlap: replication.maxOverlap } : {}),
      }
      : {}),
  };
}

/** The churn rules `config` sets, as written in a definition. */
function churnSpec(config: Exclude<NamespaceConfig, { kind: "cells" | "range" }>): NamespaceSpec {
  const duration = (key: string, ms: number | undefined) =>
    ms === undefined ? {} : { [key]: formatDuration(ms) };
  return {
    ...duration("settleWindow", config.settleWindowMs),
    ...duration("coldStartWait", config.coldStartWaitMs),
    ...(config.minImprovement === undefined ? {} : { minImprovement: config.minImprovement }),
    ...duration("shardCooldown", config.shardCooldownMs),
    ...duration("prepareTimeout", config.prepareTimeoutMs),
    ...(config.maxPreparesPerExecutor === undefined
      ? {}
      : { maxPreparesPerExecutor: config.maxPreparesPerExecutor }),
    ...(config.quarantineThreshold === undefined
      ? {}
      : { quarantineThreshold: config.quarantineThreshold }),
    ...duration("quarantineWindow", config.quarantineWindowMs),
  };
}

/**
 * A definition as YAML text, in the form {@linkcode parseNamespaceDefinition} reads.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatNamespaceSpec } from "./namespace_definition.ts";
 *
 * assert.equal(formatNamespaceSpec({ name: "o", type: "ephemeral" }), "name: o\ntype: ephemeral\n");
 * ```
 */
export function formatNamespaceSpec(spec: NamespaceSpec): string {
  return stringify(spec);
}
