import assert from "node:assert/strict";
import { greedyLoadBalancer, loadBalancerFor, naiveLoadBalancer } from "./mod.ts";

Deno.test("loadBalancerFor returns the balancer with that name", () => {
  assert.equal(loadBalancerFor("naive"), naiveLoadBalancer);
  assert.equal(loadBalancerFor("greedy"), greedyLoadBalancer);
});

Deno.test("loadBalancerFor rejects an unknown name with a RangeError", () => {
  assert.throws(() => loadBalancerFor("random" as "naive"), RangeError);
});
