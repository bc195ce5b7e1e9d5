/**
 * A raw `WatchNamespaceState` stream in the driver that keeps shard → owner
 * current and lets a suite wait for a condition on it, with the arrival time
 * of the message that made it true.
 *
 * @module
 */
import type { Buffer } from "node:buffer";
import type { WatchNamespaceStateResponse__Output } from "../../src/wire/proto.ts";
import { grpc, openClient, watchMethod } from "./wire.ts";

interface Waiter {
  readonly check: (watch: NamespaceWatch) => boolean;
  readonly resolve: (at: number) => void;
}

/** A live picture of one namespace. */
export class NamespaceWatch {
  /** Shard → owner. */
  readonly owners: Map<string, string> = new Map();
  /** Revision of the last message. */
  revision = 0;
  /** Wire size of each message, with whether it was a delta. */
  readonly sizes: { bytes: number; delta: boolean }[] = [];
  readonly #client: grpc.Client;
  readonly #call: grpc.ClientReadableStream<WatchNamespaceStateResponse__Output>;
  #waiters: Waiter[] = [];

  /**
   * Opens the stream.
   *
   * @example
   * ```ts ignore
   * import { NamespaceWatch } from "./watch.ts";
   *
   * const watch = new NamespaceWatch("127.0.0.1:7943", "bench", true);
   * await watch.until((w) => w.owners.size === 1000, 10_000);
   * watch.close();
   * ```
   */
  constructor(address: string, namespace: string, acceptDeltas: boolean) {
    this.#client = openClient(address);
    let size = 0;
    this.#call = this.#client.makeServerStreamRequest(
      watchMethod.path,
      watchMethod.requestSerialize,
      (buffer: Buffer) => {
        size = buffer.length;
        return watchMethod.responseDeserialize(buffer) as WatchNamespaceStateResponse__Output;
      },
      { namespace, acceptDeltas },
      new grpc.Metadata(),
      {},
    );
    this.#call.on("data", (message: WatchNamespaceStateResponse__Output) => {
      const at = performance.timeOrigin + performance.now();
      this.sizes.push({ bytes: size, delta: message.isDelta });
      this.#apply(message);
      const waiters = this.#waiters;
      this.#waiters = [];
      for (const w of waiters) {
        if (w.check(this)) w.resolve(at);
        else this.#waiters.push(w);
      }
    });
    this.#call.on("error", () => {});
  }

  /**
   * Resolves with the arrival time (ms since the epoch) of the message after
   * which `check` holds; resolves with NaN after `timeoutMs`.
   */
  until(check: (watch: NamespaceWatch) => boolean, timeoutMs: number): Promise<number> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        resolve(NaN);
      }, timeoutMs);
      const waiter: Waiter = {
        check,
        resolve: (at) => {
          clearTimeout(timer);
          resolve(at);
        },
      };
      this.#waiters.push(waiter);
    });
  }

  /** Shards `executorId` owns now. */
  shardsOf(executorId: string): string[] {
    return [...this.owners].filter(([, owner]) => owner === executorId).map(([shard]) => shard);
  }

  /** Ends the stream. */
  close(): void {
    this.#call.cancel();
    this.#client.close();
  }

  #apply(message: WatchNamespaceStateResponse__Output): void {
    this.revision = Number(message.revision);
    if (!message.isDelta) {
      this.owners.clear();
      for (const e of message.executors) {
        for (const shard of e.shards) this.owners.set(shard.shardKey, e.executorId);
      }
      return;
    }
    for (const change of message.ownerChanges) {
      if (change.executorId === "") this.owners.delete(change.shardKey);
      else this.owners.set(change.shardKey, change.executorId);
    }
  }
}
