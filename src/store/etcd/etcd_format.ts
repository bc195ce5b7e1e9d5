/**
 * The store's format record on etcd: `<prefix>/format`, `{"version":N}`
 * (store/store_format.ts). It sits beside `<prefix>/ns/` and
 * `<prefix>/definitions/`, where release 0.1.0 never looks.
 *
 * @module
 */
import type { Etcd3, IKeyValue, IRequestOp, Watcher } from "etcd3";
import { Buffer } from "node:buffer";
import {
  checkRaiseTarget,
  encodeStoreFormat,
  NEWEST_STORE_FORMAT,
  OLDEST_STORE_FORMAT,
  parseStoreFormat,
  type StoreFormat,
  type StoreFormatError,
} from "../store_format.ts";
import { prefixEnd } from "./keys.ts";
import { absent, get, modIs, put, txn } from "./txn.ts";
import { cancelWatcher, createWatcher } from "./watchers.ts";
import { sleep, systemClock } from "../../core/clock.ts";

/** Wait before watching the record again after a watch error, ms. */
const REWATCH_MS = 1_000;

/** A count of the keys under `prefix` (at most one is enough to tell empty from not). */
function countUnder(prefix: string): IRequestOp {
  return {
    request_range: {
      key: Buffer.from(prefix),
      range_end: Buffer.from(prefixEnd(prefix)),
      count_only: true,
    },
  };
}

/** The format record of the etcd store under `prefix`. */
export class EtcdFormat implements StoreFormat {
  readonly #client: Etcd3;
  readonly #prefix: string;
  readonly #key: string;
  /** The store revision `open` read the record at: the watch starts after it. */
  #revision = 0;

  /** Uses `client` (not owned) for the store under `prefix`. */
  constructor(client: Etcd3, prefix: string) {
    this.#client = client;
    this.#prefix = `${prefix}/`;
    this.#key = `${prefix}/format`;
  }

  /** Reads the format, writing the record first when there is none. */
  async open(): Promise<number> {
    const found = await this.#read();
    this.#revision = found.revision;
    if (found.text !== undefined) return parseStoreFormat(found.text, this.#key);
    const version = found.empty ? NEWEST_STORE_FORMAT : OLDEST_STORE_FORMAT;
    const res = await txn(this.#client, [absent(this.#key)], [
      put(this.#key, encodeStoreFormat(version)),
    ], [get(this.#key)]);
    this.#revision = Number(res.header.revision);
    if (res.succeeded) return version;
    // Another instance wrote it first: read what it wrote.
    return parseStoreFormat(res.responses[0]?.response_range.kvs[0]?.value.toString(), this.#key);
  }

  /** Raises the format to `version` (never lowers it); returns the format before. */
  async raise(version: number): Promise<number> {
    checkRaiseTarget(version);
    for (;;) {
      const res = await txn(this.#client, [], [get(this.#key)]);
      const kv = res.responses[0]?.response_range.kvs[0];
      const before = parseStoreFormat(kv?.value.toString(), this.#key);
      if (before >= version) return before;
      const written = await txn(
        this.#client,
        [kv ? modIs(this.#key, Number(kv.mod_revision)) : absent(this.#key)],
        [put(this.#key, encodeStoreFormat(version))],
      );
      if (written.succeeded) return before;
    }
  }

  /** Watches the record from the revision `open` read it at (see the port). */
  async watchUnreadable(signal: AbortSignal): Promise<StoreFormatError | undefined> {
    let after = this.#revision;
    while (!signal.aborted) {
      let watcher: Watcher | undefined;
      try {
        watcher = await createWatcher(
          this.#client.watch().key(this.#key).startRevision(String(after + 1)),
          signal,
        );
        const found = await new Promise<StoreFormatError | undefined>((resolve) => {
          const done = () => resolve(undefined);
          signal.addEventListener("abort", done, { once: true });
          watcher!.on("put", (kv: IKeyValue) => {
            after = Math.max(after, Number(kv.mod_revision));
            try {
              parseStoreFormat(kv.value.toString(), this.#key);
            } catch (error) {
              signal.removeEventListener("abort", done);
              resolve(error as StoreFormatError);
            }
          });
          // `on`, not `once`: etcd3 may emit more than one error before the watcher is cancelled,
          // and an error nobody listens to ends the process (the soak's instances died of it at
          // an etcd quorum loss, when `hasleader` makes etcd cancel watches with "no leader").
          watcher!.on("error", () => {
            signal.removeEventListener("abort", done);
            resolve(undefined);
          });
        });
        if (found) return found;
      } catch {
        // The watch could not start (etcd unreachable): try again.
      } finally {
        await cancelWatcher(watcher);
      }
      await sleep(REWATCH_MS, signal, systemClock).catch(() => {});
    }
    return undefined;
  }

  /** The record's text (undefined when absent), whether the store holds nothing, and the revision. */
  async #read(): Promise<{ text: string | undefined; empty: boolean; revision: number }> {
    const res = await txn(this.#client, [], [get(this.#key), countUnder(this.#prefix)]);
    const text = res.responses[0]?.response_range.kvs[0]?.value.toString();
    const count = Number(res.responses[1]?.response_range.count ?? 0);
    return { text, empty: count === 0, revision: Number(res.header.revision) };
  }
}
