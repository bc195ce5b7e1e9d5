/**
 * Zod schemas for the `storageParams` of `shardDistribution.leaderStore` and
 * `shardDistribution.store`.
 *
 * @module
 */
import { z } from "zod";
import { duration, endpoint, section } from "./_fields.ts";
import type { LeaderStorageParams, StorageParams } from "./types.ts";
import type { SectionSchema } from "./section_schema.ts";
import { etcdAuthSchema, etcdTlsSchema } from "./security_schema.ts";

/**
 * `storageParams` of a store; `prefix` has its default given, and leading or
 * trailing slashes are stripped from it.
 *
 * @example Usage
 * ```ts
 * import { storageParamsSchema } from "./storage_params_schema.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(storageParamsSchema("store").parse({ endpoints: ["localhost:2379"] }), {
 *   endpoints: ["localhost:2379"],
 *   dialTimeoutMs: 1_000,
 *   prefix: "store",
 * });
 * ```
 */
export function storageParamsSchema(defaultPrefix: string): SectionSchema<StorageParams> {
  return section(storageShape(defaultPrefix))
    .transform(({ dialTimeout, tls, auth, ...params }): StorageParams => ({
      ...params,
      dialTimeoutMs: dialTimeout,
      ...(tls ? { tls } : {}),
      ...(auth ? { auth } : {}),
    }));
}

/**
 * `storageParams` of the leader store: those of any store plus `electionTTL`,
 * the leader's lease, at least 2s (etcd's shortest lease) and whole seconds.
 *
 * @example Usage
 * ```ts
 * import { leaderStorageParamsSchema } from "./storage_params_schema.ts";
 * import assert from "node:assert/strict";
 *
 * const params = leaderStorageParamsSchema.parse({ endpoints: ["localhost:2379"], prefix: "/sm/" });
 * assert.equal(params.prefix, "sm");
 * assert.equal(params.electionTtlMs, 5_000);
 * ```
 */
export const leaderStorageParamsSchema: SectionSchema<LeaderStorageParams> = section({
  ...storageShape("leader"),
  electionTTL: duration("5s", { minMs: 2_000, wholeSeconds: true }),
}).transform(({ dialTimeout, electionTTL, tls, auth, ...params }): LeaderStorageParams => ({
  ...params,
  dialTimeoutMs: dialTimeout,
  electionTtlMs: electionTTL,
  ...(tls ? { tls } : {}),
  ...(auth ? { auth } : {}),
}));

function storageShape(defaultPrefix: string) {
  return {
    endpoints: z.array(endpoint()).min(1),
    dialTimeout: duration("1s", { exclusive: true }),
    prefix: z.string().default(defaultPrefix).transform((prefix, ctx) => {
      const stripped = prefix.replace(/^\/+|\/+$/g, "");
      if (stripped === "") {
        ctx.addIssue({
          code: "custom",
          input: prefix,
          message: `must name a key prefix, got ${JSON.stringify(prefix)}`,
        });
      }
      return stripped;
    }),
    tls: etcdTlsSchema.optional(),
    auth: etcdAuthSchema.optional(),
  };
}
