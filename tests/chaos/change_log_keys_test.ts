import assert from "node:assert/strict";
import { CHANGE_LOG_BOUND, changeLogNamespace, ChangeLogWatch } from "./change_log_keys.ts";
import { keyShape } from "./etcd_stats.ts";

Deno.test("change log keys: only a namespace's assignment log entries count as its log", () => {
  const shape = (key: string) => keyShape("/p/", key);
  assert.equal(changeLogNamespace(shape("/p/store/ns/chaos-x/assignment/log/0000012")), "chaos-x");
  assert.equal(changeLogNamespace(shape("/p/store/ns/soak-tmp-3/assignment/log/7")), "soak-tmp-N");
  assert.equal(changeLogNamespace(shape("/p/store/ns/chaos-x/assignment/snapshot")), undefined);
  assert.equal(changeLogNamespace(shape("/p/store/history/chaos-x/12-service-0.1-4")), undefined);
});

Deno.test("change log keys: folds are counted, a log past its bound is flagged", () => {
  const watch = new ChangeLogWatch();
  for (const n of [1, 30, 63, 2, 10]) watch.add(new Map([["a", n]]));
  for (const n of [100, CHANGE_LOG_BOUND + 1]) watch.add(new Map([["b", n]]));
  watch.add(new Map()); // both gone (a deleted namespace, or a fold to nothing)
  assert.deepEqual(watch.verdicts(), [
    { namespace: "a", max: 63, folds: 2, overBound: false },
    { namespace: "b", max: CHANGE_LOG_BOUND + 1, folds: 1, overBound: true },
  ]);
});
