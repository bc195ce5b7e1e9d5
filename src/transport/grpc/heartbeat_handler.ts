/**
 * The Heartbeat method at the transport: decode the request (its reports left
 * encoded until they are read), hand it to the service's one heartbeat entry
 * (`Heartbeats.handle`: record, wait, answer), and encode the answer. Both the
 * grpc-js handler and the Heartbeat lane (`fast_path/`) call
 * {@linkcode heartbeatAnswerer}; what goes around grpc-js is in `fast_path/`.
 *
 * @module
 */
import { keyRangeOf } from "./key_range.ts";
import { InvalidArgumentError } from "../../core/errors.ts";
import type {
  HeartbeatAnswer,
  Heartbeats,
  OwnedShard,
  RawHeartbeat,
  RawReport,
} from "../../service/mod.ts";
import {
  executorService,
  type HeartbeatRequest__Output,
  type HeartbeatResponse,
  type ShardAssignment,
  type ShardDistributorExecutorAPIHandlers,
} from "../../wire/proto.ts";
import { enumValue } from "./convert.ts";
// The files themselves, not fast_path/mod.ts: the lane it exports calls back into this file.
import { EncodedByStamp } from "./fast_path/pre_encoded.ts";
import { writeHeartbeatResponse } from "./fast_path/heartbeat_response_writer.ts";
import { splitReportsOf } from "./fast_path/heartbeat_split.ts";
import { readReportEntries } from "./fast_path/report_entries_reader.ts";
import { type HandlerContext, unary } from "./unary_handler.ts";

/** Answers one decoded Heartbeat request with its encoded `HeartbeatResponse`. */
export type HeartbeatAnswerer = (request: HeartbeatRequest__Output) => Promise<Uint8Array>;

/**
 * The Heartbeat method's work, from decoded request to encoded answer, shared
 * by the grpc-js handler and the Heartbeat lane (`fast_path/heartbeat_lane.ts`).
 * An answer's wire form is kept until the executor's shards change (see
 * fast_path/pre_encoded.ts).
 */
export function heartbeatAnswerer(heartbeats: Heartbeats): HeartbeatAnswerer {
  const serialize = executorService.Heartbeat.responseSerialize;
  const answers = new EncodedByStamp();
  return async (req) => {
    const { namespace } = req; // validated with the rest of the heartbeat, by the service
    const answer = await heartbeats.handle(rawHeartbeat(req));
    const key = `${namespace}\u0000${req.executorId}`;
    const encode = () => {
      const shards = answer.shards(); // sorted and built on each call: once here
      // Answers naming quarantined shards are rare: the generic encoder writes them.
      if (answer.quarantined) {
        return serialize({
          ...toHeartbeatResponse(shards, answer.exclusive),
          quarantinedShards: [...answer.quarantined],
        });
      }
      return writeHeartbeatResponse(shards, answer.exclusive) ??
        serialize(toHeartbeatResponse(shards, answer.exclusive));
    };
    return answer.stamp === undefined ? encode() : answers.bytesOf(key, answer.stamp, encode);
  };
}

/**
 * Handlers of `ShardDistributorExecutorAPI`; `answer` does a heartbeat's work,
 * `watch` is the `WatchExecutorAssignment` stream (assignment_watch_handler.ts).
 */
export function executorHandlers(
  context: HandlerContext,
  answer: HeartbeatAnswerer,
  watch: ShardDistributorExecutorAPIHandlers["WatchExecutorAssignment"],
): ShardDistributorExecutorAPIHandlers {
  return {
    Heartbeat: unary(
      context,
      "Heartbeat",
      async (req: HeartbeatRequest__Output) => (await answer(req)) as unknown as HeartbeatResponse,
    ),
    WatchExecutorAssignment: watch,
  };
}

type ReportsOnWire = HeartbeatRequest__Output["shardStatusReports"];

/**
 * The heartbeat as ingestion takes it. Reports the deserializer left encoded
 * (fast_path/heartbeat_split.ts) are decoded only if ingestion reads `reports`, which it
 * does only when their bytes differ from the executor's last accepted ones.
 */
function rawHeartbeat(req: HeartbeatRequest__Output): RawHeartbeat {
  const split = splitReportsOf(req);
  let reports: RawHeartbeat["reports"] | undefined;
  const decode = () => {
    // Most changed reports are read straight from their bytes; the rest as protobufjs decodes them.
    const direct = split && readReportEntries(split.bytes);
    if (direct) return direct;
    let wire: ReportsOnWire = req.shardStatusReports;
    if (split) {
      try {
        wire = split.decode() as ReportsOnWire;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new InvalidArgumentError(
          "shard_status_reports",
          `not a valid HeartbeatRequest: ${reason.slice(0, 200)}`,
        );
      }
    }
    const converted: Record<string, RawReport> = {};
    for (const [key, report] of Object.entries(wire)) {
      const failedStarts = report.failedStarts ?? 0;
      const topKeys = report.topKeys;
      converted[key] = {
        status: enumValue(report.status),
        load: report.shardLoad,
        ...(failedStarts > 0 ? { failedStarts } : {}),
        ...(topKeys && topKeys.length > 0
          ? { topKeys: topKeys.map((k) => ({ key: k.key, load: k.load })) }
          : {}),
      };
    }
    return converted;
  };
  return {
    namespace: req.namespace,
    executorId: req.executorId,
    status: enumValue(req.status),
    get reports() {
      return reports ??= decode();
    },
    ...(split ? { reportsBytes: split.bytes } : {}),
    metadata: req.metadata,
    ...(req.appliedRevision === undefined ? {} : { appliedRevision: req.appliedRevision }),
    ...(req.warmHandover ? { warmHandover: true } : {}),
    ...(req.incarnation ? { incarnation: req.incarnation } : {}),
  };
}

/**
 * The generic form of a heartbeat answer's `shards` and `exclusive`
 * (fast_path/heartbeat_response_writer.ts writes most answers without it).
 */
export function toHeartbeatResponse(
  shards: readonly OwnedShard[],
  exclusive?: HeartbeatAnswer["exclusive"],
): HeartbeatResponse {
  const shardAssignments: Record<string, ShardAssignment> = {};
  for (const { shardKey, fencingToken, releasing, preparing, slice } of shards) {
    shardAssignments[shardKey] = {
      status: preparing
        ? "ASSIGNMENT_STATUS_PREPARING"
        : releasing
        ? "ASSIGNMENT_STATUS_RELEASING"
        : "ASSIGNMENT_STATUS_READY",
      fencingToken: String(fencingToken),
      ...(slice ? { keyRange: keyRangeOf(slice) } : {}),
    };
  }
  const ownership = exclusive
    ? {
      ownershipMode: "OWNERSHIP_MODE_EXCLUSIVE" as const,
      ownershipLeaseMs: String(exclusive.leaseMs),
      revision: String(exclusive.revision),
    }
    : { ownershipMode: "OWNERSHIP_MODE_AVAILABLE" as const };
  return { shardAssignments, migrationMode: "MIGRATION_MODE_ONBOARDED", ...ownership };
}
