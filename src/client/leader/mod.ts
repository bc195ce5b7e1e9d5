/**
 * The leader-selector recipe: run a function on exactly one node of a group,
 * with Apache Curator's LeaderSelector semantics (a signal that aborts when
 * leadership is lost or suspended, a fencing token per leader, give up by
 * returning, `autoRequeue`). Built on the executor SDK over a fixed
 * namespace with `shardNum: 1`.
 *
 * See `docs/sdk_executor.md` for a guide.
 *
 * @example
 * ```ts ignore
 * import { LeaderSelector } from "./mod.ts";
 *
 * await using selector = await new LeaderSelector({
 *   addresses: "127.0.0.1:7943",
 *   namespace: "reports-leader",
 *   autoRequeue: true,
 *   takeLeadership: async (signal, lease) => {
 *     console.log("leading with fencing token", lease.fencingToken);
 *     await new Promise((resolve) => signal.addEventListener("abort", resolve));
 *   },
 * }).start();
 * ```
 *
 * @module
 */
export { LeaderSelector, leaderSelector } from "./leader_selector.ts";
export type {
  LeaderEvent,
  LeaderSelectorOptions,
  LeadershipLease,
  TakeLeadership,
  TermEnd,
} from "./types.ts";
export type { StartOptions } from "../executor/types.ts";
export * from "../common/public_errors.ts";
