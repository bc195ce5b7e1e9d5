import assert from "node:assert/strict";
import { type BlastRadiusModel, blastRadiusText, moveText, shareText } from "./placement_format.ts";

Deno.test("shareText shows a percentage and the whole number of shards it is", () => {
  assert.equal(shareText(1 / 28, 28), "3.6% (1)");
  assert.equal(shareText(2 / 3, 6), "66.7% (4)");
  assert.equal(shareText(0.1, 3), "10%");
  assert.equal(shareText(0, 5), "0% (0)");
});

Deno.test("moveText lists moved tenants, then those already there", () => {
  const text = moveText({
    namespace: "customers",
    toExecutorId: "cell-2",
    movedShardKeys: ["a", "b"],
    unchangedShardKeys: ["c"],
  });
  assert.equal(
    text,
    "Moved 2 tenants of customers to cell-2\nTENANT  RESULT\na       moved\nb       moved\nc       already there",
  );
});

Deno.test("blastRadiusText shows the figures and one row per failure case", () => {
  const model: BlastRadiusModel = {
    namespace: "customers",
    shards: 6,
    executors: 3,
    unownedShards: 0,
    fewestOwners: 1,
    single: {
      maxLost: 1 / 3,
      meanLost: 1 / 3,
      maxDegraded: 1 / 3,
      meanDegraded: 1 / 3,
      worstExecutor: "c1",
    },
    pair: { maxLost: 2 / 3, meanLost: 2 / 3, worstPair: ["c1", "c2"] },
    worstLost: 2 / 3,
  };
  const text = blastRadiusText(model);
  assert.match(text, /^Namespace {17}customers$/m);
  assert.match(text, /^Worst lost \(1 or 2 fail\) {2}66\.7% \(4\)$/m);
  assert.match(text, /^any 1 executor .* 33\.3% \(2\) .* c1$/m);
  assert.match(text, /^any 2 executors .* 66\.7% \(4\) .* c1 \+ c2$/m);
});
