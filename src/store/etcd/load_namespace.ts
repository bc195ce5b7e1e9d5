/**
 * Reading a namespace's whole state from etcd at one revision, and decoding it.
 *
 * @module
 */
import { NO_REPORTS } from "../../core/shared_reports.ts";
import type { Etcd3, IKeyValue } from "etcd3";
import { type Preparing, replayDelta } from "../../core/assignment.ts";
import type { HeartbeatRecord, ShardReports } from "../../core/types.ts";
import type { ExecutorDrain } from "../../core/executor_drain.ts";
import type { NamespaceSnapshot, StoredExecutor } from "../store.ts";
import {
  decodeClaim,
  decodeDelta,
  decodeExecutorDrain,
  decodeHeartbeat,
  decodeOwners,
  decodePartsPointer,
  decodeReports,
} from "./codec.ts";
import { type NamespaceKeys, parseKey, prefixEnd } from "./keys.ts";
import { Buffer } from "node:buffer";
import { errorText } from "./txn.ts";
import { StoreUnavailableError } from "../../core/errors.ts";
import { decodeLeaderValue } from "./leader_value.ts";
import { parseJson } from "../../core/parse_json.ts";

interface MutableExecutor {
  heartbeat?: HeartbeatRecord;
  heartbeatRevision: number;
  metadata: Record<string, string>;
  reports: ShardReports;
}

/** Reads every key of the namespace in one request, so the result is consistent. */
export async function loadNamespace(
  client: Etcd3,
  keys: NamespaceKeys,
): Promise<NamespaceSnapshot> {
  let response;
  try {
    response = await client.kv.range({
      key: Buffer.from(keys.root),
      range_end: Buffer.from(prefixEnd(keys.root)),
    });
  } catch (cause) {
    throw new StoreUnavailableError(`etcd read failed: ${errorText(cause)}`, { cause });
  }
  return decodeNamespace(keys, Number(response.header.revision), response.kvs);
}

/** Builds a snapshot from the namespace's key-values. */
export function decodeNamespace(
  keys: NamespaceKeys,
  revision: number,
  kvs: readonly IKeyValue[],
): NamespaceSnapshot {
  const executors = new Map<string, MutableExecutor>();
  const logs = new Map<number, { text: string; revision: number }>();
  const parts = new Map<string, string>();
  const drained = new Set<string>();
  const drainReasons = new Map<string, string>();
  const executorDrains = new Map<string, ExecutorDrain>();
  const requested = new Map<string, number>();
  let snapshotPointer: { text: string; revision: number } | undefined;
  let leader: NamespaceSnapshot["leader"];
  let head = 0;
  for (const kv of kvs) {
    const key = kv.key.toString();
    const value = kv.value.toString();
    const parsed = parseKey(keys, key);
    const rev = Number(kv.mod_revision);
    switch (parsed.kind) {
      case "executor": {
        const executor = executors.get(parsed.executorId) ??
          { heartbeatRevision: 0, metadata: {}, reports: NO_REPORTS };
        executors.set(parsed.executorId, executor);
        if (parsed.part === "heartbeat") {
          executor.heartbeat = decodeHeartbeat(value);
          executor.heartbeatRevision = rev;
        } else if (parsed.part === "metadata") {
          executor.metadata = parseJson(value) as Record<string, string>;
        } else executor.reports = decodeReports(value);
        break;
      }
      case "log":
        logs.set(parsed.seq, { text: value, revision: rev });
        break;
      case "parts":
        parts.set(`log/${parsed.seq}/${parsed.index}`, value);
        break;
      case "snapshot-parts":
        parts.set(`snap/${parsed.seq}/${parsed.index}`, value);
        break;
      case "snapshot":
        snapshotPointer = { text: value, revision: rev };
        break;
      case "head":
        head = Number(value);
        break;
      case "drained":
        drained.add(parsed.shardKey);
        if (value !== "") drainReasons.set(parsed.shardKey, value);
        break;
      case "requested":
        requested.set(parsed.shardKey, rev);
        break;
      case "executor-drain": {
        const drain = decodeExecutorDrain(value);
        if (drain) executorDrains.set(parsed.id, drain);
        break;
      }
      case "leader":
        leader = { claim: decodeClaim(decodeLeaderValue(value)), revision: rev };
        break;
    }
  }
  const owners = new Map<string, string>();
  const assignedRevisions = new Map<string, number>();
  const assignmentTimes = new Map<number, number>();
  const releasing = new Map<string, number>();
  const preparing = new Map<string, Preparing>();
  const ownerSets = new Map<string, readonly string[]>();
  const hidden = new Map<string, number>();
  let slices: string | undefined;
  let from = 0;
  if (snapshotPointer) {
    const pointer = decodePartsPointer(snapshotPointer.text);
    if (pointer?.seq !== undefined) {
      slices = decodeOwners(
        joinParts(parts, `snap/${pointer.seq}`, pointer.parts),
        {
          owners,
          revisions: assignedRevisions,
          times: assignmentTimes,
          releasing,
          ownerSets,
          hidden,
          preparing,
        },
        snapshotPointer.revision,
      );
      from = pointer.seq;
    }
  }
  for (const seq of [...logs.keys()].sort((a, b) => a - b)) {
    if (seq <= from) continue;
    const entry = logs.get(seq)!;
    const pointer = decodePartsPointer(entry.text);
    const text = pointer ? joinParts(parts, `log/${seq}`, pointer.parts) : entry.text;
    const delta = decodeDelta(text);
    if (delta.atMs !== undefined) assignmentTimes.set(entry.revision, delta.atMs);
    replayDelta(
      { owners, revisions: assignedRevisions, ownerSets, releasing, preparing },
      delta,
      entry.revision,
    );
    for (const [id, heartbeatRevision] of Object.entries(delta.hide ?? {})) {
      hidden.set(id, heartbeatRevision);
    }
    if (delta.slices !== undefined) slices = delta.slices;
  }
  for (const shard of assignedRevisions.keys()) {
    if (!owners.has(shard)) assignedRevisions.delete(shard);
  }
  // A hide holds only while the executor's heartbeat record is the one the leader judged.
  for (const [id, heartbeatRevision] of hidden) {
    if (executors.get(id)?.heartbeatRevision !== heartbeatRevision) hidden.delete(id);
  }
  const held = new Set(assignedRevisions.values());
  for (const revision of assignmentTimes.keys()) {
    if (!held.has(revision)) assignmentTimes.delete(revision);
  }
  const stored = new Map<string, StoredExecutor>();
  for (const [executorId, e] of executors) stored.set(executorId, { executorId, ...e });
  return {
    revision,
    executors: stored,
    assignmentSeq: Math.max(head, from),
    owners,
    ...(ownerSets.size > 0 ? { ownerSets } : {}),
    assignedRevisions,
    assignmentTimes,
    releasing,
    ...(preparing.size > 0 ? { preparing } : {}),
    ...(hidden.size > 0 ? { hidden } : {}),
    ...(slices === undefined ? {} : { slices }),
    drained,
    ...(drainReasons.size > 0 ? { drainReasons } : {}),
    executorDrains,
    requested,
    ...(leader ? { leader } : {}),
  };
}

function joinParts(parts: ReadonlyMap<string, string>, prefix: string, count: number): string {
  let text = "";
  for (let i = 0; i < count; i++) {
    const part = parts.get(`${prefix}/${i}`);
    if (part === undefined) throw new Error(`Missing part ${i} of ${prefix}`);
    text += part;
  }
  return text;
}
