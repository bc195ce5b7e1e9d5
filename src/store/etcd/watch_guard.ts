/**
 * Repairs to etcd3's watch manager (etcd3 1.1.2, `lib/watch.js`), made on
 * its prototype the first time a client is guarded.
 *
 * etcd3 multiplexes every watch of a client over one gRPC stream and finds
 * the watch a response is for by its id. Two of its handlers go wrong on
 * responses it did not expect:
 *
 * - A response for a watch id it no longer has (etcd confirming the cancel
 *   of a watch etcd had already cancelled, or a late answer for a watch
 *   cancelled meanwhile) makes it throw "Failed to find watcher for
 *   IWatchResponse" from the stream's data handler. Nothing catches that
 *   throw: the process ends (every instance of the soak exited at once), and
 *   a process-wide handler that swallowed it left the stream's reading
 *   broken (shards unowned for minutes). The guard drops such a response
 *   before it reaches the handler, and reports it.
 * - A response that both creates and cancels a watch (etcd refusing a watch
 *   request) is given to the first watch without an id, which need not be
 *   the one whose request it answers, and the queue of watches waiting to be
 *   created is never advanced: every later watch of the client waits
 *   forever. etcd answers create requests in the order they were sent, and
 *   etcd3 sends the next only after the previous was answered, so the guard
 *   gives the response to the head of that queue and moves the queue on.
 *   A create response when no watch is waiting (etcd3 throws "Could not find
 *   watcher corresponding to create response") is dropped and reported.
 *
 * The guard checks that the manager has the shape it was written for and
 * throws otherwise, so an upgrade of etcd3 that changes it fails loudly at
 * start (tests/etcd_watch_compacted_test.ts exercises it against real etcd).
 *
 * @module
 */
import type { Etcd3 } from "etcd3";

/** The parts of an etcd watch response the guard reads. */
interface WatchResponseLike {
  readonly watch_id: string;
  readonly canceled?: boolean;
}

/** The parts of etcd3's internal attach queue the guard uses. */
interface AttachQueueLike {
  queue: unknown[];
  readQueue(): void;
}

/** The parts of etcd3's internal watch manager the guard uses. */
interface WatchManagerLike {
  watchers: { readonly id: string | null }[];
  queue?: AttachQueueLike;
  handleResponse(res: WatchResponseLike): void;
  handleCreatedResponse(res: WatchResponseLike): void;
  handleCancelResponse(watcher: unknown, res: WatchResponseLike): void;
}

const GUARDED = Symbol("shard-manager.watchGuard");
const reporters = new WeakMap<object, (text: string) => void>();

function report(manager: object, text: string): void {
  reporters.get(manager)?.(text);
}

function managerOf(client: Etcd3): WatchManagerLike {
  const manager = (client as unknown as { watchManager?: Partial<WatchManagerLike> }).watchManager;
  const shaped = manager !== undefined && Array.isArray(manager.watchers) &&
    typeof manager.handleResponse === "function" &&
    typeof manager.handleCreatedResponse === "function" &&
    typeof manager.handleCancelResponse === "function";
  if (!shaped) {
    throw new Error(
      "etcd3's watch manager is not the one src/store/etcd/watch_guard.ts was written for " +
        "(etcd3 1.1.2); check the guard before upgrading etcd3",
    );
  }
  return manager as WatchManagerLike;
}

function guardPrototype(proto: WatchManagerLike & { [GUARDED]?: true }): void {
  if (proto[GUARDED]) return;
  proto[GUARDED] = true;
  const handleResponse = proto.handleResponse;
  const handleCreatedResponse = proto.handleCreatedResponse;
  proto.handleResponse = function (this: WatchManagerLike, res: WatchResponseLike) {
    if (this.watchers.some((w) => w.id === res.watch_id)) return handleResponse.call(this, res);
    report(
      this,
      `etcd answered for watch ${res.watch_id}, which this client no longer has ` +
        `(${res.canceled ? "a cancel confirmation" : "events"}); the answer is dropped`,
    );
  };
  proto.handleCreatedResponse = function (this: WatchManagerLike, res: WatchResponseLike) {
    const queue = this.queue;
    const head = queue?.queue[0];
    if (queue === undefined || head === undefined) {
      return report(
        this,
        `etcd created watch ${res.watch_id}, which no watch of this client is waiting for; ` +
          "the answer is dropped",
      );
    }
    if (!res.canceled) return handleCreatedResponse.call(this, res);
    // Refused at creation: the answer is for the watch whose create request was sent.
    queue.queue.shift();
    this.handleCancelResponse(head, res);
    queue.readQueue();
  };
}

/**
 * Applies the guard (see the module doc) to `client`'s watch manager;
 * `onStray` hears of each response it dropped. Throws when etcd3's
 * internals are not the ones the guard was written for.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Etcd3 } from "etcd3";
 * import { guardWatches } from "./watch_guard.ts";
 *
 * const client = new Etcd3({ hosts: "127.0.0.1:1" });
 * const dropped: string[] = [];
 * guardWatches(client, (text) => dropped.push(text));
 * const manager = (client as unknown as { watchManager: { handleResponse(r: object): void } })
 *   .watchManager;
 * manager.handleResponse({ watch_id: "7", canceled: true }); // etcd3 alone would throw here
 * assert.match(dropped[0]!, /watch 7, which this client no longer has/);
 * client.close();
 * ```
 */
export function guardWatches(client: Etcd3, onStray: (text: string) => void = () => {}): void {
  const manager = managerOf(client);
  reporters.set(manager, onStray);
  guardPrototype(Object.getPrototypeOf(manager));
}
