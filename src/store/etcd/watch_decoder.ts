/**
 * Decoding of etcd watch events into the store's domain events, one revision
 * at a time (a revision is one etcd transaction: a batch the cache applies
 * atomically).
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { Etcd3, IEvent } from "etcd3";
import type { NamespaceEvent, NamespaceEventBatch } from "../store.ts";
import {
  decodeClaim,
  decodeDelta,
  decodeExecutorDrain,
  decodeHeartbeat,
  decodePartsPointer,
  decodeReports,
} from "./codec.ts";
import { type NamespaceKeys, parseKey, prefixEnd } from "./keys.ts";
import { decodeLeaderValue } from "./leader_value.ts";
import { parseJson } from "../../core/parse_json.ts";

/** The raw events of one store revision. */
export interface RevisionEvents {
  /** The revision. */
  readonly revision: number;
  /** Its events, in etcd's order. */
  readonly events: readonly IEvent[];
  /** Bytes of its keys and values: what buffering it costs. */
  readonly bytes: number;
}

/**
 * Splits a watch response's events by revision (etcd never splits a
 * revision between responses), keeping their order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Buffer } from "node:buffer";
 * import type { IEvent } from "etcd3";
 * import { byRevision } from "./watch_decoder.ts";
 *
 * const put = (key: string, rev: number) => ({
 *   type: "Put",
 *   kv: { key: Buffer.from(key), value: Buffer.from("{}"), mod_revision: String(rev) },
 * }) as unknown as IEvent;
 * const groups = byRevision([put("a", 5), put("b", 5), put("c", 6)]);
 * assert.deepEqual(groups.map((g) => [g.revision, g.events.length, g.bytes]), [[5, 2, 6], [6, 1, 3]]);
 * ```
 */
export function byRevision(events: readonly IEvent[]): RevisionEvents[] {
  const groups: { revision: number; events: IEvent[]; bytes: number }[] = [];
  for (const event of events) {
    const revision = Number(event.kv.mod_revision);
    let group = groups.at(-1);
    if (!group || group.revision !== revision) {
      groups.push(group = { revision, events: [], bytes: 0 });
    }
    group.events.push(event);
    group.bytes += event.kv.key.length + (event.kv.value?.length ?? 0);
  }
  return groups;
}

/**
 * Turns the raw events of a revision into a domain event batch. It keeps the
 * parts of large assignment changes seen so far, so a change stored in parts
 * is joined when its log entry arrives (read from etcd if a part was missed).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Buffer } from "node:buffer";
 * import type { Etcd3, IEvent } from "etcd3";
 * import { NamespaceKeys } from "./keys.ts";
 * import { byRevision, EventDecoder } from "./watch_decoder.ts";
 *
 * const keys = new NamespaceKeys("store", "ns");
 * const put = {
 *   type: "Put",
 *   kv: { key: Buffer.from(keys.executor("e1", "metadata")), value: Buffer.from('{"zone":"a"}'), mod_revision: "9" },
 * } as unknown as IEvent;
 * const decoder = new EventDecoder({} as Etcd3, keys); // the client only reads missed parts
 * const [group] = byRevision([put]);
 * assert.deepEqual(await decoder.decode(group!), {
 *   revision: 9,
 *   events: [{ type: "metadata", executorId: "e1", metadata: { zone: "a" } }],
 * });
 * ```
 */
export class EventDecoder {
  #client: Etcd3;
  #keys: NamespaceKeys;
  #parts = new Map<string, string>();

  /** Decodes events of `keys`' namespace, reading missed parts through `client`. */
  constructor(client: Etcd3, keys: NamespaceKeys) {
    this.#client = client;
    this.#keys = keys;
  }

  /** The domain events of one revision (possibly none: parts, say). */
  async decode(group: RevisionEvents): Promise<NamespaceEventBatch> {
    const events: NamespaceEvent[] = [];
    for (const event of group.events) {
      const decoded = await this.#decodeOne(event);
      if (decoded) events.push(decoded);
    }
    return { revision: group.revision, events };
  }

  async #decodeOne(event: IEvent): Promise<NamespaceEvent | undefined> {
    const key = event.kv.key.toString();
    const parsed = parseKey(this.#keys, key);
    const isPut = event.type === "Put";
    const value = isPut ? event.kv.value.toString() : "";
    switch (parsed.kind) {
      case "executor":
        if (!isPut) {
          return parsed.part === "heartbeat"
            ? { type: "executor_removed", executorId: parsed.executorId }
            : undefined;
        }
        if (parsed.part === "heartbeat") {
          return {
            type: "heartbeat",
            executorId: parsed.executorId,
            record: decodeHeartbeat(value),
          };
        }
        if (parsed.part === "metadata") {
          return {
            type: "metadata",
            executorId: parsed.executorId,
            metadata: parseJson(value) as Record<string, string>,
          };
        }
        return { type: "reports", executorId: parsed.executorId, reports: decodeReports(value) };
      case "parts":
        if (isPut) this.#parts.set(key, value);
        else this.#parts.delete(key);
        return undefined;
      case "log": {
        if (!isPut) return undefined;
        const pointer = decodePartsPointer(value);
        const text = pointer ? await this.#joinParts(parsed.seq, pointer.parts) : value;
        return { type: "assignment", seq: parsed.seq, delta: decodeDelta(text) };
      }
      case "drained":
        // The value is the drain's reason; "" (every drain before reasons) is none.
        return isPut && value !== ""
          ? { type: "drained", shardKey: parsed.shardKey, drained: true, reason: value }
          : { type: "drained", shardKey: parsed.shardKey, drained: isPut };
      case "executor-drain": {
        const drain = isPut ? decodeExecutorDrain(value) : undefined;
        return drain ? { type: "executor_drain", id: parsed.id, drain } : {
          type: "executor_drain",
          id: parsed.id,
        };
      }
      case "requested":
        return { type: "requested", shardKey: parsed.shardKey, requested: isPut };
      case "leader":
        return isPut
          ? { type: "leader", claim: decodeClaim(decodeLeaderValue(value)) }
          : { type: "resync", reason: "the namespace was reset" };
      case "head":
        return isPut ? undefined : { type: "resync", reason: "the namespace was reset" };
      default:
        return undefined;
    }
  }

  async #joinParts(seq: number, count: number): Promise<string> {
    const prefix = this.#keys.parts(seq);
    let text = "";
    for (let i = 0; i < count; i++) {
      const key = `${prefix}${String(i).padStart(6, "0")}`;
      let part = this.#parts.get(key);
      if (part === undefined) {
        const res = await this.#client.kv.range({
          key: Buffer.from(prefix),
          range_end: Buffer.from(prefixEnd(prefix)),
        });
        for (const kv of res.kvs) this.#parts.set(kv.key.toString(), kv.value.toString());
        part = this.#parts.get(key);
        if (part === undefined) throw new Error(`Part ${i} of assignment change ${seq} is missing`);
      }
      text += part;
      this.#parts.delete(key);
    }
    return text;
  }
}
