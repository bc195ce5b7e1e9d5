// deno-lint-ignore-file no-console -- a diagnostic tool prints its result
/**
 * Times the three costs of a whole watch picture of SHARDS fixed shards over
 * 1,000 executors, as the instance pays them for a new spectator: building it
 * (each executor's shards sorted, as `WatchFanout.current` does), encoding it
 * with protobufjs (`toWatchResponse`, then the method's serializer) and
 * writing it directly (`writeWatchPicture`). Medians of 5 runs, in ms:
 *
 * ```sh
 * deno run -A bench/tools/watch_picture_probe.ts [SHARDS]
 * ```
 *
 * @module
 */
import { indexKeys } from "../../src/core/index_keys.ts";
import { compareShardKeys } from "../../src/routing/routing.ts";
import type { NamespacePicture } from "../../src/routing/views.ts";
import { toWatchResponse } from "../../src/transport/grpc/convert.ts";
import { writeWatchPicture } from "../../src/transport/grpc/watch_message_writer.ts";
import { shardDistributorService } from "../../src/wire/proto.ts";
import { median } from "../lib/stats.ts";
import { Buffer } from "node:buffer";

const shards = Number(Deno.args[0] ?? 1_000_000);
if (!Number.isInteger(shards) || shards < 1) {
  console.error("usage: watch_picture_probe.ts [SHARDS]");
  Deno.exit(2);
}
const EXECUTORS = 1_000;
const keys = indexKeys(shards);
const owned = Array.from({ length: EXECUTORS }, () => new Set<string>());
for (let i = 0; i < keys.length; i++) owned[(i * 7_919) % EXECUTORS]!.add(keys[i]!);
const serialize = shardDistributorService.WatchNamespaceState.responseSerialize;

const timed = <T>(f: () => T): [T, number] => {
  const start = performance.now();
  const value = f();
  return [value, performance.now() - start];
};
const build: number[] = [], generic: number[] = [], direct: number[] = [];
let bytes = 0;
for (let run = 0; run < 5; run++) {
  const [picture, built] = timed((): NamespacePicture => ({
    kind: "snapshot",
    version: run,
    revision: 1_000 + run,
    executors: owned.map((set, e) => ({
      executorId: `executor-${e}`,
      metadata: { address: `10.0.${e >> 8}.${e & 255}:7933` },
      shards: [...set].sort(compareShardKeys),
    })),
  }));
  const [slow, encoded] = timed(() => serialize(toWatchResponse(picture)));
  const [fast, written] = timed(() => writeWatchPicture(picture));
  if (!fast || Buffer.compare(slow, fast) !== 0) throw new Error("the two encodings differ");
  build.push(built);
  generic.push(encoded);
  direct.push(written);
  bytes = fast.length;
}
console.log(JSON.stringify({
  shards,
  executors: EXECUTORS,
  bytes,
  buildMs: Math.round(median(build)),
  protobufjsMs: Math.round(median(generic)),
  directMs: Math.round(median(direct)),
}));
