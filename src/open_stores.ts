/**
 * Opens the stores a configuration names: etcd (the main store and the leader
 * store, possibly different clusters) or the single-node embedded store.
 *
 * @module
 */
import type { ShardDistributionConfig } from "./config/mod.ts";
import type { Logger } from "./core/logger.ts";
import { openEmbeddedStores } from "./store/embedded/mod.ts";
import { createEtcdClient, etcdConnection, EtcdLeaderStore, EtcdStore } from "./store/etcd/mod.ts";
import {
  type LeaderStore,
  NEWEST_STORE_FORMAT,
  type Store,
  WARM_HANDOVER_FORMAT,
} from "./store/mod.ts";

/** The two ports, opened. */
export interface OpenedStores {
  /** Namespace state. */
  readonly store: Store;
  /** Elections. */
  readonly leaderStore: LeaderStore;
  /** Which engine: for logs and health. */
  readonly kind: "etcd" | "embedded";
}

/** Opens the configured stores; says so in the log when they are embedded (single node). */
export async function openStores(
  sd: ShardDistributionConfig,
  logger: Logger,
): Promise<OpenedStores> {
  if (sd.embedded) {
    const { store, leaderStore } = await openEmbeddedStores(sd.embedded.dataDir);
    logger.warn(
      "single-node mode: the embedded store keeps state in a local directory; only one " +
        "instance can use it. For several instances and high availability, configure etcd " +
        "(shardDistribution.store and leaderStore; see config/example.yaml).",
      { dataDir: sd.embedded.dataDir },
    );
    return { store, leaderStore, kind: "embedded" };
  }
  if (!sd.store || !sd.leaderStore) throw new Error("configure etcd stores or embedded");
  // TLS files and passwords are read before any client opens.
  const [main, leader] = await Promise.all([
    etcdConnection(sd.store.storageParams, "shardDistribution.store"),
    etcdConnection(sd.leaderStore.storageParams, "shardDistribution.leaderStore"),
  ]);
  return {
    store: new EtcdStore(createEtcdClient(main, logger), sd.store.storageParams.prefix),
    leaderStore: new EtcdLeaderStore(
      createEtcdClient(leader, logger),
      sd.leaderStore.storageParams.prefix,
    ),
    kind: "etcd",
  };
}

/**
 * Reads the main store's format (store/store_format.ts), writing its record
 * when there is none, and logs it. Rejects with `StoreFormatError` when the
 * store is at a format newer than this release reads.
 */
export async function openStoreFormat(opened: OpenedStores, logger: Logger): Promise<number> {
  const format = await opened.store.format.open();
  if (format < WARM_HANDOVER_FORMAT) {
    logger.warn(
      `the store is at format ${format} (release 0.1.0's): warm handover stays off so that ` +
        `instances of 0.1.0 can still run on it; once none will, raise it with ` +
        `--raise-store-format ${NEWEST_STORE_FORMAT} (docs/operations.md, "Upgrades and rollbacks")`,
      { format },
    );
  } else logger.info("store format", { format });
  return format;
}
