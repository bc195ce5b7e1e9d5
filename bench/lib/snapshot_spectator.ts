/**
 * A spectator fed one snapshot by a fake transport (no network), for
 * micro-benchmarks of its in-memory lookups.
 *
 * @module
 */
import {
  createSpectator,
  type PlacementSnapshot,
  type Spectator,
  type SpectatorTransport,
} from "../../src/client/spectator/mod.ts";

/** A ready spectator of namespace "bench" that has received `snapshot` and nothing after. */
export async function snapshotSpectator(
  snapshot: Omit<PlacementSnapshot, "kind">,
): Promise<Spectator> {
  const transport: SpectatorTransport = {
    async *watch(_address, _namespace, signal) {
      yield { kind: "snapshot", ...snapshot };
      await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
    },
    getShardOwner: () => Promise.reject(new Error("not used")),
    namespaceType: () => Promise.resolve("fixed"),
    isRetryable: () => true,
    close() {},
  };
  const spectator = createSpectator({ addresses: ["fake"], namespace: "bench", transport });
  await spectator.ready;
  return spectator;
}
