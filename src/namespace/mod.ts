/**
 * A namespace's whole life inside one instance, in one folder.
 *
 * **Where it begins.** A definition enters the store from the configuration
 * file (`seed_file_namespaces.ts`, at start and on SIGHUP; the entry as
 * written, `ShardDistributionConfig.namespaceSpecs`) or from the namespace
 * RPCs (`namespace_admin.ts`, checked against the live-change rules of
 * `definition_changes.ts`). Every instance follows the stored definitions
 * (`namespace_catalog.ts`): a new one is built into a `NamespaceRuntime`
 * (`runtime_builder.ts`: its policy, read once), loaded (its cache follows
 * the store), registered (`namespace_registry.ts`) and starts campaigning.
 *
 * **While it runs.** The runtime owns the cache, the spectator fan-out, the
 * shard requester, pending cell moves and the election loop; others read its
 * `view`, follow it (`subscribe`, `subscribeDeltas`) and wait on it
 * (`waitForRevision`, `waitUntil`), and the service
 * tells it about store outages (`forgiveOutage`). History goes through this
 * folder's own port (`namespace_history.ts`).
 *
 * **Where it ends.** A changed definition builds the replacement, swaps it
 * into the registry and stops the old runtime (its lifetime aborts, streams
 * served from it end, its leader resigns); a deleted one, after its shards
 * are drained (for a bounded time) and its keys removed (`NamespaceAdmin.delete`),
 * is stopped and
 * unregistered, after which calls for it are `NOT_FOUND`.
 *
 * @module
 */
export * from "./definition_changes.ts";
export * from "./namespace_admin.ts";
export * from "./namespace_catalog.ts";
export * from "./namespace_history.ts";
export * from "./namespace_registry.ts";
export * from "./namespace_runtime.ts";
export * from "./pending_cell_moves.ts";
export * from "./runtime_builder.ts";
export * from "./seed_file_namespaces.ts";
