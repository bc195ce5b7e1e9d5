/**
 * Value encodings of the main store, and the splitting of large values into
 * parts that each fit in one etcd request (etcd refuses requests over 1.5 MiB).
 *
 * @module
 */
import type {
  AssignmentDelta,
  ExecutorStatus,
  HeartbeatRecord,
  LeaderClaim,
} from "../../core/types.ts";
import type { AssignmentImage } from "../store.ts";
import type { Preparing } from "../../core/assignment.ts";
import type { ExecutorDrain } from "../../core/executor_drain.ts";
import { parseIndexJson } from "./index_json.ts";
import { parseJson } from "../../core/parse_json.ts";

/** Largest part written in one request, leaving room for keys and the rest of a transaction. */
export const MAX_PART_BYTES = 1024 * 1024;

const STATUSES = new Set<string>(["ACTIVE", "DRAINING", "DRAINED", "UNKNOWN"]);

/** Encodes a heartbeat record (`"sn"`: the enum number of an UNKNOWN status). */
export function encodeHeartbeat(record: HeartbeatRecord): string {
  const applied = record.appliedRevision ? { ar: record.appliedRevision } : {};
  const number = record.statusNumber === undefined ? {} : { sn: record.statusNumber };
  const warm = record.warmHandover ? { wh: 1 } : {};
  const life = record.incarnation ? { inc: record.incarnation } : {};
  return JSON.stringify({
    status: record.status,
    ...number,
    ts: record.timestampMs,
    ...applied,
    ...warm,
    ...life,
  });
}

/**
 * Decodes a heartbeat record. A status this version does not know (written by
 * a newer one) reads as UNKNOWN, as an unknown status on the wire does: no
 * new shards, and the executor keeps its own until it is stale.
 */
export function decodeHeartbeat(text: string): HeartbeatRecord {
  const raw = parseJson(text) as {
    status?: string;
    sn?: number;
    ts?: number;
    ar?: number;
    wh?: number;
    inc?: unknown;
  };
  const status = (STATUSES.has(raw.status ?? "") ? raw.status : "UNKNOWN") as ExecutorStatus;
  const applied = Number(raw.ar ?? 0);
  const number = status === "UNKNOWN" && Number.isInteger(raw.sn) ? { statusNumber: raw.sn! } : {};
  return {
    status,
    ...number,
    timestampMs: Number(raw.ts ?? 0),
    ...(applied > 0 ? { appliedRevision: applied } : {}),
    ...(raw.wh === 1 ? { warmHandover: true as const } : {}),
    ...(typeof raw.inc === "string" && raw.inc !== "" ? { incarnation: raw.inc } : {}),
  };
}

export { decodeReports, encodeReports } from "./reports_json.ts";

/** Encodes an executor drain. */
export function encodeExecutorDrain(drain: ExecutorDrain): string {
  return JSON.stringify(drain);
}

/** Decodes an executor drain; undefined when the value is not one. */
export function decodeExecutorDrain(text: string): ExecutorDrain | undefined {
  const raw = parseJson(text) as Record<string, unknown>;
  const id = String(raw.id ?? "");
  const reason = String(raw.reason ?? "");
  const createdAtMs = Number(raw.createdAtMs ?? 0);
  if (typeof raw.executorId === "string") {
    return { id, executorId: raw.executorId, reason, createdAtMs };
  }
  if (raw.selector && typeof raw.selector === "object") {
    const selector: Record<string, string> = {};
    for (const [k, v] of Object.entries(raw.selector)) selector[k] = String(v);
    return { id, selector, reason, createdAtMs };
  }
  return undefined;
}

/** Encodes a leader claim. */
export function encodeClaim(claim: LeaderClaim): string {
  return JSON.stringify(claim);
}

/** Decodes a leader claim. */
export function decodeClaim(text: string): LeaderClaim {
  const raw = parseJson(text) as LeaderClaim;
  const text_ = (value: unknown) => typeof value === "string" && value !== "";
  return {
    term: Number(raw.term),
    instanceId: String(raw.instanceId),
    sinceMs: Number(raw.sinceMs),
    ...(text_(raw.instanceName) ? { instanceName: raw.instanceName! } : {}),
    ...(text_(raw.grpcAddress) ? { grpcAddress: raw.grpcAddress! } : {}),
    ...(text_(raw.httpAddress) ? { httpAddress: raw.httpAddress! } : {}),
    ...(raw.ended && typeof raw.ended === "object"
      ? {
        ended: {
          atMs: Number(raw.ended.atMs),
          reason: String(raw.ended.reason ?? ""),
          routine: raw.ended.routine === true,
        },
      }
      : {}),
  };
}

/** Encodes an assignment delta (with its commit time, when set). */
export function encodeDelta(delta: AssignmentDelta): string {
  const release = delta.release?.length ? { l: delta.release } : {};
  const sets = delta.sets && Object.keys(delta.sets).length > 0 ? { s: delta.sets } : {};
  const hide = delta.hide && Object.keys(delta.hide).length > 0 ? { x: delta.hide } : {};
  const prepare = delta.prepare && Object.keys(delta.prepare).length > 0
    ? { p: delta.prepare }
    : {};
  const unprepare = delta.unprepare?.length ? { q: delta.unprepare } : {};
  const tokens = delta.tokens && Object.keys(delta.tokens).length > 0 ? { k: delta.tokens } : {};
  return JSON.stringify({
    a: delta.assign,
    u: delta.unassign,
    r: delta.remove,
    ...release,
    ...prepare,
    ...unprepare,
    ...tokens,
    ...sets,
    ...hide,
    ...(delta.moves ? { m: delta.moves } : {}),
    ...(delta.slices === undefined ? {} : { g: delta.slices }),
    t: delta.atMs,
  });
}

/** Decodes an assignment delta. */
export function decodeDelta(text: string): AssignmentDelta {
  const raw = parseIndexJson(text) as {
    a?: Record<string, string[]>;
    u?: string[];
    r?: string[];
    l?: string[];
    s?: Record<string, string[]>;
    x?: Record<string, number>;
    p?: Record<string, string[]>;
    q?: string[];
    k?: Record<string, number>;
    t?: number;
    m?: Record<"placement" | "balance" | "drain" | "loss", number>;
    g?: string;
  };
  const m = raw.m;
  const moves = m && typeof m === "object"
    ? {
      placement: Number(m.placement) || 0,
      balance: Number(m.balance) || 0,
      drain: Number(m.drain) || 0,
      loss: Number(m.loss) || 0,
    }
    : undefined;
  const delta = {
    assign: raw.a ?? {},
    unassign: raw.u ?? [],
    remove: raw.r ?? [],
    ...(raw.l?.length ? { release: raw.l } : {}),
    ...(raw.p && typeof raw.p === "object" ? { prepare: raw.p } : {}),
    ...(raw.q?.length ? { unprepare: raw.q } : {}),
    ...(raw.k && typeof raw.k === "object" ? { tokens: raw.k } : {}),
    ...(raw.s && typeof raw.s === "object" ? { sets: raw.s } : {}),
    ...(raw.x && typeof raw.x === "object" ? { hide: raw.x } : {}),
    ...(moves ? { moves } : {}),
    ...(typeof raw.g === "string" ? { slices: raw.g } : {}),
  };
  return typeof raw.t === "number" ? { ...delta, atMs: raw.t } : delta;
}

/**
 * Encodes a whole assignment as `{"v":2,"o":{executor:{revision:[shards]}},"t":{revision:ms}}`,
 * plus `"l":{revision:[shards]}` for releasing shards and `"s":{shard:[owners]}` for
 * the owner sets of shards with several owners (`o` lists those under their
 * primary), and `"x":{executor:heartbeat revision}` for executors hidden from
 * the routing view, and `"w":{executor:{revision:[shards]}}` for the shards
 * each executor prepares (warm handovers in flight), and `"g":"..."` for a
 * key-range namespace's slice map; older readers ignore them.
 * Grouping by revision keeps it compact: shards placed together share one.
 */
export function encodeOwners(image: AssignmentImage): string {
  const o: Record<string, Record<string, string[]>> = {};
  const t: Record<string, number> = {};
  for (const [shard, executor] of image.owners) {
    const revision = image.revisions.get(shard) ?? 0;
    ((o[executor] ??= {})[revision] ??= []).push(shard);
    const time = image.times.get(revision);
    if (time !== undefined) t[revision] = time;
  }
  const s: Record<string, readonly string[]> = {};
  for (const [shard, set] of image.ownerSets ?? []) {
    if (set.length > 1 && image.owners.get(shard) === set[0]) s[shard] = set;
  }
  const sets = image.ownerSets?.size ? { s } : {};
  const hidden = image.hidden?.size ? { x: Object.fromEntries(image.hidden) } : {};
  const w: Record<string, Record<string, string[]>> = {};
  for (const [shard, { executor, revision }] of image.preparing ?? []) {
    if (image.owners.has(shard)) ((w[executor] ??= {})[revision] ??= []).push(shard);
  }
  const preparing = Object.keys(w).length > 0 ? { w } : {};
  const slices = image.slices === undefined ? {} : { g: image.slices };
  if (!image.releasing?.size) {
    return JSON.stringify({ v: 2, o, t, ...sets, ...hidden, ...preparing, ...slices });
  }
  const l: Record<string, string[]> = {};
  for (const [shard, revision] of image.releasing) {
    if (image.owners.has(shard)) (l[revision] ??= []).push(shard);
  }
  return JSON.stringify({ v: 2, o, t, l, ...sets, ...hidden, ...preparing, ...slices });
}

/**
 * Decodes a whole assignment into `into`, returning its slice map (a
 * key-range namespace's; undefined for others). The first format (executor →
 * shards, no revisions) is still read: its shards get `fallbackRevision`.
 */
export function decodeOwners(
  text: string,
  into: {
    owners: Map<string, string>;
    revisions: Map<string, number>;
    times: Map<number, number>;
    releasing?: Map<string, number>;
    ownerSets?: Map<string, readonly string[]>;
    hidden?: Map<string, number>;
    preparing?: Map<string, Preparing>;
  },
  fallbackRevision: number,
): string | undefined {
  const raw = parseIndexJson(text) as Record<string, unknown>;
  if (raw.v !== 2) {
    for (const [executor, shards] of Object.entries(raw as Record<string, string[]>)) {
      for (const shard of shards) {
        into.owners.set(shard, executor);
        into.revisions.set(shard, fallbackRevision);
      }
    }
    return undefined;
  }
  const v2 = raw as {
    o: Record<string, Record<string, string[]>>;
    t?: Record<string, number>;
    l?: Record<string, string[]>;
    s?: Record<string, string[]>;
    x?: Record<string, number>;
    w?: Record<string, Record<string, string[]>>;
    g?: string;
  };
  for (const [id, revision] of Object.entries(v2.x ?? {})) into.hidden?.set(id, Number(revision));
  for (const [executor, byRevision] of Object.entries(v2.o)) {
    for (const [revision, shards] of Object.entries(byRevision)) {
      const rev = Number(revision) || fallbackRevision;
      for (const shard of shards) {
        into.owners.set(shard, executor);
        into.revisions.set(shard, rev);
      }
    }
  }
  for (const [revision, ms] of Object.entries(v2.t ?? {})) into.times.set(Number(revision), ms);
  for (const [revision, shards] of Object.entries(v2.l ?? {})) {
    for (const shard of shards) into.releasing?.set(shard, Number(revision));
  }
  for (const [executor, byRevision] of Object.entries(v2.w ?? {})) {
    for (const [revision, shards] of Object.entries(byRevision)) {
      for (const shard of shards) {
        into.preparing?.set(shard, { executor, revision: Number(revision) });
      }
    }
  }
  for (const [shard, set] of Object.entries(v2.s ?? {})) {
    if (set.length > 1 && into.owners.get(shard) === set[0]) into.ownerSets?.set(shard, set);
  }
  return typeof v2.g === "string" ? v2.g : undefined;
}

/**
 * Splits `text` into parts of at most `maxBytes` UTF-8 bytes each, never
 * inside a character.
 */
export function splitParts(text: string, maxBytes: number = MAX_PART_BYTES): string[] {
  // A part must hold the longest UTF-8 character (4 bytes), or no part could advance.
  if (!(maxBytes >= 4)) throw new RangeError(`maxBytes must be at least 4, got ${maxBytes}`);
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= maxBytes) return [text];
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = Math.min(start + maxBytes, bytes.length);
    // Step back to a character boundary: continuation bytes are 10xxxxxx.
    while (end < bytes.length && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
    parts.push(decoder.decode(bytes.subarray(start, end)));
    start = end;
  }
  return parts;
}

/** A value stored in place of a large one: the number of parts to join. */
export function encodePartsPointer(parts: number, seq?: number): string {
  return JSON.stringify(seq === undefined ? { parts } : { seq, parts });
}

/** Reads a parts pointer, or undefined when the value is stored inline. */
export function decodePartsPointer(text: string): { parts: number; seq?: number } | undefined {
  if (!text.startsWith('{"parts":') && !text.startsWith('{"seq":')) return undefined;
  const raw = parseJson(text) as { parts?: number; seq?: number };
  if (typeof raw.parts !== "number") return undefined;
  return raw.seq === undefined ? { parts: raw.parts } : { parts: raw.parts, seq: raw.seq };
}
