/**
 * `ChangeSlice`: an operator's split, merge, pin or unpin of a key-range
 * namespace's slice (service/slice_operations.ts). Any instance takes it; one
 * that does not lead the namespace forwards it to the leader.
 *
 * @module
 */
import { InvalidArgumentError } from "../../core/errors.ts";
import { validateNamespace, validateShardKey } from "../../limits/validate_request.ts";
import type { Service, SliceChange } from "../../service/mod.ts";
import type {
  ChangeSliceRequest__Output,
  ChangeSliceResponse,
  ShardDistributorAPIHandlers,
} from "../../wire/proto.ts";
import { keyRangeOf } from "./key_range.ts";
import { atLeader } from "./leader_forwarder.ts";
import { type HandlerContext, unary } from "./unary_handler.ts";

/** `ChangeSlice` of `ShardDistributorAPI`. */
export function sliceHandlers(
  service: Pick<Service, "slices">,
  context: HandlerContext,
): Pick<ShardDistributorAPIHandlers, "ChangeSlice"> {
  return {
    ChangeSlice: unary(context, "ChangeSlice", async (req, signal, metadata) => {
      const namespace = validateNamespace(req.namespace);
      const change = sliceChangeOf(req);
      const dryRun = req.dryRun === true;
      return await atLeader<ChangeSliceResponse>(async () => {
        const slices = await service.slices.change(namespace, change, signal, { dryRun });
        return {
          namespace,
          dryRun,
          slices: slices.map((s) => ({
            shardKey: String(s.slice.id),
            keyRange: keyRangeOf(s.slice),
            ownerExecutorIds: [...s.owners],
            pinned: s.pinned,
          })),
        };
      }, () => context.forwarder?.changeSlice(req, metadata, signal));
    }, true),
  };
}

/**
 * The change a request asks for; throws `InvalidArgumentError` naming the
 * field that is wrong.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sliceChangeOf } from "./slice_handlers.ts";
 *
 * const req = {
 *   namespace: "keys", shardKey: "4", kind: "SLICE_CHANGE_KIND_SPLIT", splitAt: "8000000000000000",
 *   splitAtKey: "", mergeWithShardKey: "", unpinned: false, dryRun: false,
 * } as const;
 * assert.deepEqual(sliceChangeOf(req), { kind: "split", sliceId: 4, at: 1n << 63n, unpinned: false });
 * assert.throws(() => sliceChangeOf({ ...req, shardKey: "x" }), /shard_key/);
 * ```
 */
export function sliceChangeOf(req: ChangeSliceRequest__Output): SliceChange {
  const sliceId = sliceIdOf(req.shardKey, "shard_key");
  const unpinned = req.unpinned === true;
  switch (req.kind) {
    case "SLICE_CHANGE_KIND_SPLIT": {
      if (req.splitAt !== "" && req.splitAtKey !== "") {
        throw new InvalidArgumentError("split_at", "give split_at or split_at_key, not both");
      }
      if (req.splitAt !== "") {
        if (!/^[0-9a-fA-F]{1,16}$/.test(req.splitAt)) {
          throw new InvalidArgumentError(
            "split_at",
            `must be a point of the hash line as up to 16 hex digits, got ${
              JSON.stringify(req.splitAt.slice(0, 40))
            }`,
          );
        }
        return { kind: "split", sliceId, at: BigInt(`0x${req.splitAt}`), unpinned };
      }
      if (req.splitAtKey !== "") {
        return {
          kind: "split",
          sliceId,
          atKey: validateShardKey(req.splitAtKey, "split_at_key"),
          unpinned,
        };
      }
      return { kind: "split", sliceId, unpinned };
    }
    case "SLICE_CHANGE_KIND_MERGE":
      return {
        kind: "merge",
        sliceId,
        withId: sliceIdOf(req.mergeWithShardKey, "merge_with_shard_key"),
        unpinned,
      };
    case "SLICE_CHANGE_KIND_PIN":
      return { kind: "pin", sliceId };
    case "SLICE_CHANGE_KIND_UNPIN":
      return { kind: "unpin", sliceId };
    default:
      throw new InvalidArgumentError(
        "kind",
        `must be SLICE_CHANGE_KIND_SPLIT, _MERGE, _PIN or _UNPIN, got ${JSON.stringify(req.kind)}`,
      );
  }
}

function sliceIdOf(text: string, field: string): number {
  if (!/^(0|[1-9][0-9]{0,14})$/.test(text)) {
    throw new InvalidArgumentError(
      field,
      `must be a slice's shard key (its id, a non-negative integer), got ${
        JSON.stringify(text.slice(0, 40))
      }`,
    );
  }
  return Number(text);
}
