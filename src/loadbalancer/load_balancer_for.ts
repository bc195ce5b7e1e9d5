import { greedyLoadBalancer } from "./greedy.ts";
import { naiveLoadBalancer } from "./naive.ts";
import type { LoadBalancer } from "./types.ts";

/**
 * The load balancer for a strategy name, as written in the config.
 *
 * @throws {RangeError} When the name is neither `"naive"` nor `"greedy"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadBalancerFor } from "./load_balancer_for.ts";
 *
 * assert.equal(loadBalancerFor("greedy").name, "greedy");
 * ```
 */
export function loadBalancerFor(name: "naive" | "greedy"): LoadBalancer {
  switch (name) {
    case "naive":
      return naiveLoadBalancer;
    case "greedy":
      return greedyLoadBalancer;
    default:
      throw new RangeError(
        `Cannot find load balancer: name must be "naive" or "greedy", received "${String(name)}"`,
      );
  }
}
