/**
 * Sizes shared by micro-benchmark files and the suites that read their
 * results (so a suite can turn time per iteration into a rate).
 *
 * @module
 */

/** `ownerOf` calls per iteration of `bench/spectator_bench.ts`. */
export const LOOKUPS_PER_ITERATION = 100_000;
