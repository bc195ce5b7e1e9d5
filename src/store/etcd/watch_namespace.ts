/**
 * The change feed of one namespace: an etcd watch decoded into batches of
 * domain events, one batch per store revision.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { Etcd3, IEvent, IWatchResponse, Watcher } from "etcd3";
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
import { errorText } from "./txn.ts";

/**
 * Streams the namespace's changes after `afterRevision`. When etcd cancels the
 * watch (history compacted, or an error) the stream yields a `resync` event
 * and closes; the reader then reloads a snapshot and watches again.
 */
export function watchNamespace(
  client: Etcd3,
  keys: NamespaceKeys,
  afterRevision: number,
  signal: AbortSignal,
): ReadableStream<NamespaceEventBatch> {
  let watcher: Watcher | undefined;
  let closed = false;
  const parts = new Map<string, string>();
  const decoder = new EventDecoder(client, keys, parts);
  return new ReadableStream<NamespaceEventBatch>({
    start(controller) {
      let chain = Promise.resolve();
      const finish = (reason: string) => {
        if (closed) return;
        closed = true;
        chain = chain.then(() => {
          if (!signal.aborted) {
            controller.enqueue({ revision: 0, events: [{ type: "resync", reason }] });
          }
          controller.close();
        });
        void watcher?.cancel().catch(() => {});
      };
      const onAbort = () => {
        if (closed) return;
        closed = true;
        void watcher?.cancel().catch(() => {});
        chain = chain.then(() => controller.close());
      };
      signal.addEventListener("abort", onAbort, { once: true });
      watcher = client.watch().prefix(keys.root).startRevision(String(afterRevision + 1))
        .watcher();
      watcher.on("data", (res: IWatchResponse) => {
        if (closed) return;
        if (res.compact_revision && res.compact_revision !== "0") {
          return finish(`history compacted at revision ${res.compact_revision}`);
        }
        chain = chain.then(async () => {
          for (const batch of await decoder.decode(res.events ?? [])) {
            if (!closed) controller.enqueue(batch);
          }
        }).catch((error) => finish(`watch decoding failed: ${errorText(error)}`));
      });
      watcher.on("error", (error: Error) => finish(`watch failed: ${error.message}`));
      if (signal.aborted) onAbort();
    },
    cancel() {
      closed = true;
      return watcher?.cancel().catch(() => {});
    },
  });
}

/** Turns raw watch events into domain event batches. */
class EventDecoder {
  #client: Etcd3;
  #keys: NamespaceKeys;
  #parts: Map<string, string>;

  constructor(client: Etcd3, keys: NamespaceKeys, parts: Map<string, string>) {
    this.#client = client;
    this.#keys = keys;
    this.#parts = parts;
  }

  async decode(events: readonly IEvent[]): Promise<NamespaceEventBatch[]> {
    const batches: { revision: number; events: NamespaceEvent[] }[] = [];
    for (const event of events) {
      const revision = Number(event.kv.mod_revision);
      let batch = batches.at(-1);
      if (!batch || batch.revision !== revision) {
        batch = { revision, events: [] };
        batches.push(batch);
      }
      const decoded = await this.#decodeOne(event);
      if (decoded) batch.events.push(decoded);
    }
    return batches;
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
          return { type: "metadata", executorId: parsed.executorId, metadata: JSON.parse(value) };
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
        return { type: "drained", shardKey: parsed.shardKey, drained: isPut };
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
