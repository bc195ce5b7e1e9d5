/**
 * What a replicated pass achieved: the "reported, never hidden" figures that
 * become leader log fields and metrics.
 *
 * @module
 */

/** Figures of one replicated pass's placement. */
export interface PlacementReport {
  /** Owners per shard actually given: `min(replicas, eligible executors)`. */
  readonly replicas: number;
  /** Shards with fewer owners than asked for. */
  readonly shortShards: number;
  /** Shards whose owners are not spread over zones as far as the zones allow. */
  readonly zoneSpreadViolations: number;
  /** Shuffle: the requested bound m. */
  readonly overlapBound?: number;
  /** Shuffle: the largest number of executors two shards share (exact). */
  readonly maxOverlap?: number;
  /** Shuffle: shards sharing more than the bound with some other shard. */
  readonly shardsOverBound?: number;
}
