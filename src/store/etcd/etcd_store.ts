/**
 * The main store on etcd.
 *
 * Leader writes are fenced by a compare on the namespace's leader claim, and
 * an assignment change is committed by a transaction of constant size (the
 * claim, the log head, the new entry), however many shards or executors it
 * touches: large changes are staged as parts first. That is what removes the
 * upstream's cap of about 128 executors per namespace.
 *
 * @module
 */
import type { Etcd3 } from "etcd3";
import { Buffer } from "node:buffer";
import { FencedError, StoreUnavailableError } from "../../core/errors.ts";
import type {
  AssignmentDelta,
  ExecutorWrite,
  LeaderClaim,
  LeaderTermEnd,
} from "../../core/types.ts";
import type { ExecutorDrain } from "../../core/executor_drain.ts";
import {
  assertUnchangedWithinLimit,
  type AssignmentImage,
  type Fence,
  MAX_UNCHANGED_EXECUTORS,
  type NamespaceEventBatch,
  type NamespaceSnapshot,
  type NamespaceWatchOptions,
  type Store,
  type StoreLimits,
  type Versioned,
} from "../store.ts";
import {
  decodeClaim,
  decodePartsPointer,
  encodeDelta,
  encodeExecutorDrain,
  encodeOwners,
  encodePartsPointer,
  splitParts,
} from "./codec.ts";
import { NamespaceKeys, prefixEnd } from "./keys.ts";
import { decodeLeaderValue, encodeLeaderValue, paddedTerm } from "./leader_value.ts";
import { loadNamespace } from "./load_namespace.ts";
import {
  absent,
  del,
  errorText,
  get,
  MAX_TXN_OPS,
  modIs,
  put,
  txn,
  valueIs,
  writeAll,
} from "./txn.ts";
import { watchNamespace } from "./watch_namespace.ts";
import {
  clearRequests,
  heartbeatRevisions,
  removeExecutors,
  writeExecutors,
} from "./executor_writes.ts";
import { EtcdDefinitions } from "./etcd_definitions.ts";
import { EtcdFormat } from "./etcd_format.ts";
import { applyOperatorWrite, pruneOperatorRequests } from "./operator_write.ts";
import { appendHistory, historyNamespaces, readHistory, trimHistory } from "./history.ts";
import type { HistoryEvent } from "../../core/history_event.ts";
import type { HistoryQuery } from "../history_store.ts";
import type { BrakeRecord } from "../brake_store.ts";
import { readBrake, writeBrake } from "./brake.ts";
import type {
  OperatorGuard,
  OperatorWrite,
  OperatorWriteOutcome,
  RequestRetention,
} from "../operator_write.ts";

/**
 * Deadline of a store ping, ms: well under the 1 s of silence after which
 * the store counts as unreachable (src/service/store_pulse.ts), so a ping sent
 * to a member that stopped answering is retried on another in time.
 */
export const PING_TIMEOUT_MS = 500;

/** The `Store` port on an etcd cluster. */
export class EtcdStore implements Store {
  /** What one call can take. */
  readonly limits: StoreLimits = { maxUnchangedExecutors: MAX_UNCHANGED_EXECUTORS };
  #client: Etcd3;
  #prefix: string;
  #keys = new Map<string, NamespaceKeys>();
  /** Namespace definitions, under `<prefix>/definitions/`. */
  readonly definitions: EtcdDefinitions;
  /** The format record, `<prefix>/format`. */
  readonly format: EtcdFormat;

  /** Uses `client` (owned by the store: `close()` closes it) under `prefix`. */
  constructor(client: Etcd3, prefix: string) {
    this.#client = client;
    this.#prefix = prefix;
    this.definitions = new EtcdDefinitions(client, prefix);
    this.format = new EtcdFormat(client, prefix);
  }

  #ns(namespace: string): NamespaceKeys {
    let keys = this.#keys.get(namespace);
    if (!keys) this.#keys.set(namespace, keys = new NamespaceKeys(this.#prefix, namespace));
    return keys;
  }

  /** Reads a namespace at one revision. */
  loadNamespace(namespace: string): Promise<NamespaceSnapshot> {
    return loadNamespace(this.#client, this.#ns(namespace));
  }

  /** Streams a namespace's changes. */
  watchNamespace(
    namespace: string,
    afterRevision: number,
    signal: AbortSignal,
    options: NamespaceWatchOptions = {},
  ): ReadableStream<NamespaceEventBatch> {
    return watchNamespace(this.#client, this.#ns(namespace), afterRevision, signal, options);
  }

  /** Writes executor state, packing many executors into each transaction. */
  writeExecutors(namespace: string, writes: readonly ExecutorWrite[]): Promise<number> {
    return writeExecutors(this.#client, this.#ns(namespace), writes);
  }

  /** Records requests for ephemeral shards. */
  requestShards(namespace: string, shardKeys: readonly string[]): Promise<number> {
    const keys = this.#ns(namespace);
    return writeAll(this.#client, shardKeys.map((key) => put(`${keys.requests}${key}`, "")));
  }

  /** Drains or undrains shards; a drain's value is its reason ("" for none). */
  setDrained(
    namespace: string,
    shardKeys: readonly string[],
    drained: boolean,
    reason?: string,
  ): Promise<number> {
    const prefix = this.#ns(namespace).drained;
    return writeAll(
      this.#client,
      shardKeys.map((key) =>
        drained ? put(`${prefix}${key}`, reason ?? "") : del(`${prefix}${key}`)
      ),
    );
  }

  /** Drains shards with `reason` in transactions fenced on the leader claim. */
  async drainFenced(fence: Fence, shardKeys: readonly string[], reason: string): Promise<number> {
    const keys = this.#ns(fence.namespace);
    let revision = 0;
    for (let i = 0; i < shardKeys.length; i += MAX_TXN_OPS - 1) {
      const batch = shardKeys.slice(i, i + MAX_TXN_OPS - 1);
      const res = await txn(
        this.#client,
        [modIs(keys.leader, fence.revision)],
        batch.map((key) => put(`${keys.drained}${key}`, reason)),
      );
      if (!res.succeeded) throw new FencedError(fence.namespace, "the leader's drain was refused");
      revision = Number(res.header.revision);
    }
    return revision;
  }

  /** Reads the brake record (undefined when absent or damaged). */
  readBrake(namespace: string): Promise<BrakeRecord | undefined> {
    return readBrake(this.#client, this.#ns(namespace));
  }

  /** Replaces the brake record, fenced on the leader claim. */
  writeBrake(fence: Fence, record: BrakeRecord): Promise<void> {
    return writeBrake(this.#client, this.#ns(fence.namespace), fence, record);
  }

  /** Stores an executor drain. */
  putExecutorDrain(namespace: string, drain: ExecutorDrain): Promise<number> {
    const key = this.#ns(namespace).executorDrain(drain.id);
    return writeAll(this.#client, [put(key, encodeExecutorDrain(drain))]);
  }

  /** Removes an executor drain. */
  deleteExecutorDrain(namespace: string, id: string): Promise<number> {
    return writeAll(this.#client, [del(this.#ns(namespace).executorDrain(id))]);
  }

  /** Claims the namespace for `claim.term`, refusing when a newer term holds it. */
  async claimLeadership(namespace: string, claim: LeaderClaim): Promise<Fence> {
    const key = this.#ns(namespace).leader;
    const value = encodeLeaderValue(claim);
    let res = await txn(this.#client, [valueIs(key, paddedTerm(claim.term), "Less")], [
      get(key),
      put(key, value),
    ], [get(key)]);
    const found = res.succeeded ? res.responses[0]?.response_range.kvs[0] : undefined;
    if (!res.succeeded && (res.responses[0]?.response_range.kvs.length ?? 0) === 0) {
      res = await txn(this.#client, [absent(key)], [put(key, value)]);
    }
    if (!res.succeeded) {
      throw new FencedError(namespace, `a newer term than ${claim.term} holds it`);
    }
    const previous = found ? previousClaim(found.value.toString()) : undefined;
    return {
      namespace,
      claim,
      revision: Number(res.header.revision),
      ...(previous ? { previous } : {}),
    };
  }

  /** Marks the claim handed over, only while `fence` still holds it. */
  async endLeadership(fence: Fence, end: LeaderTermEnd): Promise<void> {
    const key = this.#ns(fence.namespace).leader;
    const res = await txn(this.#client, [modIs(key, fence.revision)], [
      put(key, encodeLeaderValue({ ...fence.claim, ended: end })),
    ]);
    if (!res.succeeded) throw new FencedError(fence.namespace, "the handover was refused");
  }

  /** Commits change `seq` atomically, with a transaction of constant size. */
  async commitAssignment(
    fence: Fence,
    seq: number,
    delta: AssignmentDelta,
    unchanged: readonly Versioned[] = [],
  ): Promise<number> {
    assertUnchangedWithinLimit(unchanged);
    const keys = this.#ns(fence.namespace);
    const value = await this.#stage(fence, keys.parts(seq), encodeDelta(delta));
    const previous = seq === 1 ? absent(keys.head) : valueIs(keys.head, String(seq - 1));
    const heard = unchanged.map((e) => modIs(keys.executor(e.id, "heartbeat"), e.revision));
    const res = await txn(this.#client, [modIs(keys.leader, fence.revision), previous, ...heard], [
      put(keys.head, String(seq)),
      put(keys.logEntry(seq), value),
    ]);
    if (!res.succeeded) {
      throw new FencedError(fence.namespace, `assignment change ${seq} was refused`);
    }
    return Number(res.header.revision);
  }

  /** Folds the log up to `seq` into a snapshot and deletes what it replaces. */
  async compactAssignment(fence: Fence, seq: number, image: AssignmentImage): Promise<number> {
    const keys = this.#ns(fence.namespace);
    const fenced = [modIs(keys.leader, fence.revision), valueIs(keys.head, String(seq))];
    const refused = () => new FencedError(fence.namespace, `snapshot at change ${seq} was refused`);
    // Check before staging: the live snapshot's parts may be the ones at `seq`.
    if (!(await txn(this.#client, fenced, [])).succeeded) throw refused();
    const parts = splitParts(encodeOwners(image));
    await this.#putParts(fence, keys.snapshotParts(seq), parts);
    const res = await txn(this.#client, fenced, [
      put(keys.snapshot, encodePartsPointer(parts.length, seq)),
      del(keys.log, keys.logEntry(seq + 1)),
      del(keys.parts(), keys.parts(seq + 1)),
      del(keys.snapshotParts(), keys.snapshotParts(seq)),
    ], [get(keys.snapshot)]);
    if (!res.succeeded) {
      const live = res.responses[0]?.response_range.kvs[0]?.value.toString() ?? "";
      if (decodePartsPointer(live)?.seq !== seq) {
        await writeAll(this.#client, [
          del(keys.snapshotParts(seq), prefixEnd(keys.snapshotParts(seq))),
        ]);
      }
      throw refused();
    }
    return Number(res.header.revision);
  }

  /** Each executor's heartbeat record revision as etcd holds it now (0 when absent). */
  heartbeatRevisions(
    namespace: string,
    executorIds: readonly string[],
  ): Promise<Map<string, number>> {
    return heartbeatRevisions(this.#client, this.#ns(namespace), executorIds);
  }

  /** Removes executors whose heartbeat is unchanged since `revision`. */
  removeExecutors(fence: Fence, executors: readonly Versioned[]): Promise<void> {
    return removeExecutors(this.#client, this.#ns(fence.namespace), fence, executors);
  }

  /** Removes shard requests still at their revision; a batch that conflicts is retried key by key. */
  clearRequests(fence: Fence, requests: readonly Versioned[]): Promise<void> {
    return clearRequests(this.#client, this.#ns(fence.namespace), fence, requests);
  }

  /** Deletes every key of the namespace. */
  async resetNamespace(namespace: string): Promise<number> {
    const root = this.#ns(namespace).root;
    const res = await txn(this.#client, [], [del(root, prefixEnd(root))]);
    return Number(res.responses[0]?.response_delete_range.deleted ?? 0);
  }

  /** Applies an operator's write with its request id and guard, in one transaction. */
  applyOperatorWrite(
    namespace: string,
    write: OperatorWrite,
    guard: OperatorGuard,
  ): Promise<OperatorWriteOutcome> {
    return applyOperatorWrite(
      this.#client,
      this.#prefix,
      this.#ns(namespace),
      namespace,
      write,
      guard,
    );
  }

  /** Appends history events. */
  appendHistory(namespace: string, events: readonly HistoryEvent[]): Promise<void> {
    return appendHistory(this.#client, this.#prefix, namespace, events);
  }

  /** Reads history events, oldest first. */
  readHistory(namespace: string, query: HistoryQuery): Promise<HistoryEvent[]> {
    return readHistory(this.#client, this.#prefix, namespace, query);
  }

  /** Trims history by age and count. */
  trimHistory(namespace: string, beforeMs: number, keep: number): Promise<number> {
    return trimHistory(this.#client, this.#prefix, namespace, beforeMs, keep);
  }

  /** Namespaces with any history (deleted ones too), sorted. */
  historyNamespaces(): Promise<string[]> {
    return historyNamespaces(this.#client, this.#prefix);
  }

  /** Forgets applied request ids beyond `retention`. */
  pruneOperatorRequests(namespace: string, retention: RequestRetention): Promise<number> {
    return pruneOperatorRequests(this.#client, this.#prefix, namespace, retention);
  }

  /**
   * Reads one key (linearizably, as every read) to check etcd answers. A
   * single key: a range over the whole prefix makes etcd count every key in
   * it, even with `limit` (230 ms to 1 s per probe at 20,000 executors).
   * It gives up after {@linkcode PING_TIMEOUT_MS}: a member that does not
   * answer then rests (member_rest.ts) and the next ping goes to another.
   */
  async ping(): Promise<void> {
    try {
      await this.#client.kv.range(
        { key: Buffer.from(`${this.#prefix}/ping`), keys_only: true },
        { deadline: Date.now() + PING_TIMEOUT_MS },
      );
    } catch (cause) {
      throw new StoreUnavailableError(`etcd read failed: ${errorText(cause)}`, { cause });
    }
  }

  /** Closes the etcd client. */
  close(): Promise<void> {
    this.#client.close();
    return Promise.resolve();
  }

  /** Returns `text` itself when small, else stages it as parts and returns a pointer. */
  async #stage(fence: Fence, prefix: string, text: string): Promise<string> {
    const parts = splitParts(text);
    if (parts.length === 1) return text;
    await this.#putParts(fence, prefix, parts);
    return encodePartsPointer(parts.length);
  }

  async #putParts(fence: Fence, prefix: string, parts: readonly string[]): Promise<void> {
    const leader = this.#ns(fence.namespace).leader;
    for (const [i, part] of parts.entries()) {
      const res = await txn(this.#client, [modIs(leader, fence.revision)], [
        put(`${prefix}${String(i).padStart(6, "0")}`, part),
      ]);
      if (!res.succeeded) {
        throw new FencedError(fence.namespace, "staging a large change was refused");
      }
    }
  }
}

/** The claim a new term replaced; a damaged value is no reason to refuse the claim. */
function previousClaim(value: string): LeaderClaim | undefined {
  try {
    return decodeClaim(decodeLeaderValue(value));
  } catch {
    return undefined;
  }
}
