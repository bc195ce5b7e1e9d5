/**
 * The range planner of key-range namespaces (issue 43): pure passes over
 * slices of the 64-bit hash line that split hot slices at their
 * load-weighted point, merge cold neighbours, isolate hot keys (with more
 * owners in available namespaces) and move slices within a churn budget.
 * See docs/placement.md, "Key ranges".
 *
 * @module
 */
export { planRanges } from "./plan_ranges.ts";
export { topKeysOf } from "./top_keys.ts";
export type * from "./types.ts";
