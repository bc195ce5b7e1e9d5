/**
 * The embedded store: the `Store` and `LeaderStore` ports in one process,
 * persisted under a data directory. No etcd needed; single node only.
 *
 * @example Open, use, close
 * ```ts
 * import assert from "node:assert/strict";
 * import { openEmbeddedStores } from "./mod.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const { store, leaderStore } = await openEmbeddedStores(dir);
 * const snapshot = await store.loadNamespace("orders");
 * assert.equal(snapshot.owners.size, 0);
 * await leaderStore.close();
 * await store.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */
import { EmbeddedLeaderStore } from "./embedded_leader_store.ts";
import { EmbeddedStore } from "./embedded_store.ts";

export { EmbeddedLeaderStore } from "./embedded_leader_store.ts";
export { EmbeddedStore } from "./embedded_store.ts";

/** Opens both embedded ports on `dataDir`. */
export async function openEmbeddedStores(
  dataDir: string,
): Promise<{ store: EmbeddedStore; leaderStore: EmbeddedLeaderStore }> {
  const store = await EmbeddedStore.open(dataDir);
  return { store, leaderStore: new EmbeddedLeaderStore(() => store.nextRevision()) };
}
