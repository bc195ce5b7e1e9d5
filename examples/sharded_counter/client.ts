/**
 * The sharded counter's client: maps a key to its shard, asks the spectator
 * for the shard's owner, and sends the increment there over HTTP. An attempt
 * that reaches a process not serving the shard (`421`), finds no owner, or
 * cannot connect is retried after a short pause, with a fresh look-up.
 *
 * @module
 */
import { sleep } from "../_shared/cli.ts";

/**
 * How a request ended, one value per request:
 * - `ok`: served warm at its first attempt;
 * - `cold`: served by an owner whose shard was still loading (the answer
 *   waited for the load), without a failed attempt before;
 * - `failed`: at least one attempt reached a process not serving the shard,
 *   found no owner, or could not connect (a client without retries would
 *   have returned an error). It was retried; `served` says if a retry got
 *   through before the deadline.
 */
export type Outcome = "ok" | "cold" | "failed";

/** The result of {@linkcode CounterClient.increment}. */
export interface RequestResult {
  /** How it ended. */
  readonly outcome: Outcome;
  /** Whether it was served (false: every attempt failed until the deadline). */
  readonly served: boolean;
  /** Attempts made (1 without a retry). */
  readonly attempts: number;
  /** From the first attempt until the answer (or the deadline), in ms. */
  readonly latencyMs: number;
  /** The counter's new value, when served. */
  readonly value?: number;
}

/** Where requests go: the spectator's `addressOf` (an owner's `metadata.address`). */
export interface Router {
  /** The address of the shard's owner, or undefined when it has none. */
  addressOf(shard: string): string | undefined;
}

/** Options of {@linkcode CounterClient}. */
export interface CounterClientOptions {
  /** Shards of the namespace (keys are hashed onto `0..shardCount-1`). */
  readonly shardCount: number;
  /** One attempt's timeout, ms. @default {2000} */
  readonly attemptTimeoutMs?: number;
  /** Give up retrying after this long, ms. @default {10000} */
  readonly deadlineMs?: number;
  /** First pause before a retry, ms; it doubles up to 8 times this. @default {25} */
  readonly retryDelayMs?: number;
}

/**
 * The shard of `key`: FNV-1a of its UTF-16 code units, modulo `shardCount`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shardOf } from "./client.ts";
 *
 * assert.equal(shardOf("apples", 8), shardOf("apples", 8));
 * assert.ok(Number(shardOf("pears", 8)) < 8);
 * ```
 */
export function shardOf(key: string, shardCount: number): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193) >>> 0;
  }
  return String(hash % shardCount);
}

/**
 * Sends increments to the owners of their shards.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CounterClient } from "./client.ts";
 *
 * // A router that knows no owner: the request fails until its deadline.
 * const client = new CounterClient({ addressOf: () => undefined }, {
 *   shardCount: 4,
 *   deadlineMs: 50,
 * });
 * const result = await client.increment("apples");
 * assert.equal(result.outcome, "failed");
 * assert.equal(result.served, false);
 * ```
 */
export class CounterClient {
  readonly #router: Router;
  readonly #shards: number;
  readonly #attemptMs: number;
  readonly #deadlineMs: number;
  readonly #retryMs: number;

  /** A client routing with `router`. */
  constructor(router: Router, options: CounterClientOptions) {
    const positive = (name: string, value: number) => {
      if (!(Number.isFinite(value) && value > 0)) {
        throw new RangeError(`${name} must be a finite number > 0, got ${value}`);
      }
      return value;
    };
    this.#router = router;
    this.#shards = positive("shardCount", options.shardCount);
    if (!Number.isInteger(this.#shards)) {
      throw new RangeError(`shardCount must be an integer, got ${options.shardCount}`);
    }
    this.#attemptMs = positive("attemptTimeoutMs", options.attemptTimeoutMs ?? 2_000);
    this.#deadlineMs = positive("deadlineMs", options.deadlineMs ?? 10_000);
    this.#retryMs = positive("retryDelayMs", options.retryDelayMs ?? 25);
  }

  /** Adds 1 to counter `key`, retrying until served or the deadline. */
  async increment(key: string): Promise<RequestResult> {
    const shard = shardOf(key, this.#shards);
    const started = performance.now();
    let attempts = 0;
    let delay = this.#retryMs;
    while (true) {
      attempts++;
      const answer = await this.#attempt(shard, key);
      const latencyMs = performance.now() - started;
      if (answer !== undefined) {
        const outcome = attempts > 1 ? "failed" : answer.served === "cold" ? "cold" : "ok";
        return { outcome, served: true, attempts, latencyMs, value: answer.value };
      }
      if (latencyMs + delay > this.#deadlineMs) {
        return { outcome: "failed", served: false, attempts, latencyMs };
      }
      await sleep(delay);
      delay = Math.min(delay * 2, this.#retryMs * 8);
    }
  }

  async #attempt(
    shard: string,
    key: string,
  ): Promise<{ value: number; served: "warm" | "cold" } | undefined> {
    try {
      const address = this.#router.addressOf(shard);
      if (address === undefined) return undefined;
      const response = await fetch(
        `http://${address}/shards/${shard}/counters/${encodeURIComponent(key)}`,
        { method: "POST", signal: AbortSignal.timeout(this.#attemptMs) },
      );
      if (!response.ok) {
        await response.body?.cancel();
        return undefined;
      }
      return await response.json();
    } catch {
      return undefined; // no route, refused (the owner is gone) or timed out
    }
  }
}
