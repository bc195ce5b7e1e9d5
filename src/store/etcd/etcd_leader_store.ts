/**
 * Elections on etcd, after etcd's `concurrency` package: a session is a lease
 * kept alive; a candidate puts `<prefix>/ns/<ns>/election/<lease>` on it and
 * leads once no key with a lower create revision remains. Its create revision
 * is the term: it only grows from one leader to the next.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { Etcd3, Lease } from "etcd3";
import { startTimer, systemClock, timeoutSignal } from "../../core/clock.ts";
import { StoreUnavailableError } from "../../core/errors.ts";
import { untilAborted } from "../../streams/until_aborted.ts";
import type { LeaderInfo, Leadership, LeaderStore } from "../leader_store.ts";
import { prefixEnd } from "./keys.ts";
import { absent, errorText, txn } from "./txn.ts";
import { cancelWatcher, createWatcher } from "./watchers.ts";

/** The `LeaderStore` port on an etcd cluster. */
export class EtcdLeaderStore implements LeaderStore {
  #client: Etcd3;
  #prefix: string;
  #active = new Set<Leadership>();

  /** Uses `client` (closed by `close()`) under `prefix`. */
  constructor(client: Etcd3, prefix: string) {
    this.#client = client;
    this.#prefix = prefix;
  }

  #electionPrefix(namespace: string): string {
    return `${this.#prefix}/ns/${namespace}/election/`;
  }

  /** Campaigns until leading or until `signal` aborts. */
  async campaign(
    namespace: string,
    instanceId: string,
    options: { readonly ttlMs: number; readonly signal: AbortSignal },
  ): Promise<Leadership> {
    const { signal } = options;
    signal.throwIfAborted();
    const ttlSeconds = Math.max(2, Math.ceil(options.ttlMs / 1000));
    const lease = this.#client.lease(ttlSeconds, { autoKeepAlive: true });
    const lost = new AbortController();
    lease.on(
      "lost",
      (error) => lost.abort(new StoreUnavailableError(`Lease lost: ${errorText(error)}`)),
    );
    watchKeepalives(lease, ttlSeconds * 1000, lost);
    try {
      // etcd3 retries while etcd is down: a shutdown must not wait for it.
      const leaseId = await untilAborted(lease.grant(), signal);
      const key = `${this.#electionPrefix(namespace)}${BigInt(leaseId).toString(16)}`;
      const res = await untilAborted(
        txn(this.#client, [absent(key)], [{
          request_put: { key: Buffer.from(key), value: Buffer.from(instanceId), lease: leaseId },
        }]),
        signal,
      );
      if (!res.succeeded) throw new StoreUnavailableError(`Election key ${key} already exists`);
      const term = Number(res.header.revision);
      await this.#waitForTurn(namespace, term, AbortSignal.any([signal, lost.signal]));
      const until = AbortSignal.any([signal, lost.signal]);
      return await this.#leadership(namespace, term, key, lease, lost, ttlSeconds * 1000, until);
    } catch (error) {
      lost.abort(new Error("Campaign ended"));
      await revokeWithin(lease, ttlSeconds * 1000);
      throw signal.aborted ? signal.reason : error;
    }
  }

  /** The current leader of `namespace`, if any. */
  async leader(namespace: string): Promise<LeaderInfo | undefined> {
    const prefix = this.#electionPrefix(namespace);
    const res = await this.#client.kv.range({
      key: Buffer.from(prefix),
      range_end: Buffer.from(prefixEnd(prefix)),
      sort_order: "Ascend",
      sort_target: "Create",
      limit: 1,
    }).catch((cause) => {
      throw new StoreUnavailableError(`leader store read failed: ${errorText(cause)}`, { cause });
    });
    const kv = res.kvs[0];
    return kv ? { instanceId: kv.value.toString(), term: Number(kv.create_revision) } : undefined;
  }

  /** Closes the etcd client. */
  async close(): Promise<void> {
    // Closing the client alone would leave lease keep-alives running.
    await Promise.all([...this.#active].map((leadership) => leadership.resign()));
    this.#client.close();
  }

  /** Waits until no candidate with a lower create revision than `term` remains. */
  async #waitForTurn(namespace: string, term: number, signal: AbortSignal): Promise<void> {
    const prefix = this.#electionPrefix(namespace);
    while (true) {
      signal.throwIfAborted();
      const res = await untilAborted(
        this.#client.kv.range({
          key: Buffer.from(prefix),
          range_end: Buffer.from(prefixEnd(prefix)),
          max_create_revision: term - 1,
          sort_order: "Descend",
          sort_target: "Create",
          limit: 1,
        }),
        signal,
      );
      const ahead = res.kvs[0];
      if (!ahead) return;
      await this.#waitForDelete(ahead.key.toString(), Number(res.header.revision), signal);
    }
  }

  async #waitForDelete(key: string, afterRevision: number, signal: AbortSignal): Promise<void> {
    const watcher = await createWatcher(
      this.#client.watch().key(key).startRevision(String(afterRevision + 1)),
      signal,
    );
    try {
      await new Promise<void>((resolve, reject) => {
        watcher.on("delete", () => resolve());
        watcher.on("error", (error) => reject(new StoreUnavailableError(errorText(error))));
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
    } finally {
      await cancelWatcher(watcher);
    }
  }

  async #leadership(
    namespace: string,
    term: number,
    key: string,
    lease: Lease,
    lost: AbortController,
    ttlMs: number,
    signal: AbortSignal,
  ): Promise<Leadership> {
    // Leadership also ends if someone deletes the election key. Without etcd the watch is
    // never confirmed: the campaign then ends with the lease (or the caller's signal).
    const watcher = await createWatcher(
      this.#client.watch().key(key).startRevision(String(term + 1)),
      signal,
    );
    watcher.on("delete", () => lost.abort(new StoreUnavailableError("Election key deleted")));
    watcher.on("error", (error) => lost.abort(new StoreUnavailableError(errorText(error))));
    let resigned: Promise<void> | undefined;
    const resign = () =>
      resigned ??= (async () => {
        if (!lost.signal.aborted) lost.abort(new Error("Resigned"));
        await cancelWatcher(watcher);
        await revokeWithin(lease, ttlMs);
      })();
    const leadership: Leadership = { namespace, term, signal: lost.signal, resign };
    this.#active.add(leadership);
    lost.signal.addEventListener("abort", () => {
      this.#active.delete(leadership);
      void resign();
    }, { once: true });
    return leadership;
  }
}

/**
 * The etcd3 client reports a lost lease only after two TTLs without a
 * keep-alive, but etcd may expire the lease one TTL after the last keep-alive
 * it received. Leadership therefore ends once three quarters of a TTL pass
 * since the last keep-alive that was sent and then acknowledged: a deadline
 * set again by every acknowledgement. (These timers run on the real clock,
 * `systemClock`: the lease expires on etcd's time, which no fake clock moves.)
 */
function watchKeepalives(lease: Lease, ttlMs: number, lost: AbortController): void {
  const clock = systemClock;
  const limit = ttlMs * 0.75;
  let fired = clock.monotonic();
  let cancel = () => {};
  const expireAt = (acknowledged: number) => {
    cancel();
    cancel = startTimer(clock, acknowledged + limit - clock.monotonic() + 1, () => {
      lost.abort(new StoreUnavailableError(`No lease keep-alive acknowledged for ${limit} ms`));
    });
  };
  lease.on("keepaliveFired", () => fired = clock.monotonic());
  lease.on("keepaliveSucceeded", () => expireAt(fired));
  expireAt(fired);
  lost.signal.addEventListener("abort", () => cancel(), { once: true });
}

/**
 * Revokes `lease`, waiting at most `ms` (of the real clock, as above): with
 * etcd unreachable the revoke would be retried for as long as that lasts, and
 * the lease expires by itself within its TTL anyway.
 */
async function revokeWithin(lease: Lease, ms: number): Promise<void> {
  const timeout = timeoutSignal(ms, systemClock);
  await untilAborted(lease.revoke(), timeout.signal).catch(() => {});
  timeout.clear();
}
