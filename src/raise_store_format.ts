/**
 * `shard-manager --config FILE --raise-store-format N`: raises the main
 * store's format (store/store_format.ts) and exits. Run it once every
 * instance runs this release and no rollback to an older one will be
 * needed: an older release cannot run on the raised store
 * (docs/operations.md, "Upgrades and rollbacks").
 *
 * @module
 */
import type { Config } from "./config/mod.ts";
import type { Logger } from "./core/logger.ts";
import { openStores } from "./open_stores.ts";
import { checkRaiseTarget } from "./store/mod.ts";

/** The format before and after a raise. */
export interface FormatRaise {
  /** The store's format before (a raise never lowers it). */
  readonly before: number;
  /** The store's format now. */
  readonly after: number;
}

/**
 * Raises the configured store's format to `version`; a `RangeError` for a
 * version this release does not know, a `StoreFormatError` for a store
 * already newer than this release reads.
 */
export async function raiseStoreFormat(
  config: Config,
  version: number,
  logger: Logger,
): Promise<FormatRaise> {
  checkRaiseTarget(version);
  const { store, leaderStore } = await openStores(config.shardDistribution, logger);
  try {
    const before = await store.format.raise(version);
    return { before, after: Math.max(before, version) };
  } finally {
    await Promise.all([store.close(), leaderStore.close()]);
  }
}
