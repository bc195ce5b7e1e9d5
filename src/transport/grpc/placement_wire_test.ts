import assert from "node:assert/strict";
import * as grpc from "@grpc/grpc-js";
import { NotLeaderError, PreconditionError } from "../../core/errors.ts";
import { blastRadius } from "../../placement/blast_radius.ts";
import { toBlastRadiusResponse } from "./convert.ts";
import { toGrpcError } from "./status_map.ts";

Deno.test("a refused move and a call to a non-leader are FAILED_PRECONDITION, with the leader named", () => {
  const refused = new PreconditionError("ns", 'Cannot move tenants to cell "c": it is drained');
  assert.deepEqual(toGrpcError(refused), {
    code: grpc.status.FAILED_PRECONDITION,
    details: refused.message,
    message: refused.message,
  });
  const notLeader = new NotLeaderError("ns", "sm-2");
  assert.equal(toGrpcError(notLeader).code, grpc.status.FAILED_PRECONDITION);
  assert.match(notLeader.message, /instance "sm-2" does, send the call to it/);
  assert.match(new NotLeaderError("ns", undefined).message, /no leader is known yet/);
});

Deno.test("toBlastRadiusResponse writes counts as int64 strings and absent ids as empty", () => {
  const view = { namespace: "ns", ...blastRadius([["a"], ["a"], ["b"], []], ["a", "b"]) };
  assert.deepEqual(toBlastRadiusResponse(view), {
    namespace: "ns",
    shards: "4",
    executors: "2",
    unownedShards: "1",
    fewestOwners: 1,
    singleMaxLost: 0.5,
    singleMeanLost: 0.375,
    singleMaxDegraded: 0.5,
    singleMeanDegraded: 0.375,
    worstExecutorId: "a",
    pairMaxLost: 0.75,
    pairMeanLost: 0.75,
    worstPairExecutorIds: ["a", "b"],
    worstLost: 0.75,
  });
  const empty = toBlastRadiusResponse({ namespace: "ns", ...blastRadius([], []) });
  assert.equal(empty.worstExecutorId, "");
  assert.deepEqual(empty.worstPairExecutorIds, []);
});
