/**
 * The spectator's connection, as its staleness reports it: which address
 * answers, when the last snapshot came, since when the stream is lost and
 * why.
 *
 * @module
 */
import type { Staleness } from "./types.ts";

/**
 * What the spectator knows of its watch stream.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Connection } from "./_connection.ts";
 *
 * const connection = new Connection();
 * assert.equal(connection.updated("a:1", true, 10), true);
 * connection.lost(new Error("gone"), 25);
 * assert.deepEqual(connection.staleness(true, 40), {
 *   connected: false,
 *   address: undefined,
 *   lastUpdateMs: 10,
 *   ageMs: 15,
 *   disconnectedAtMs: 25,
 *   lastError: new Error("gone"),
 * });
 * ```
 */
export class Connection {
  /** The address whose stream delivered its snapshot; undefined while disconnected. */
  address: string | undefined;
  /** Why the last stream or connection attempt failed; cleared on a new stream's snapshot. */
  lastError: Error | undefined;
  #lastUpdateMs: number | undefined;
  #disconnectedAtMs: number | undefined;

  /** Notes an update from `address` at `now`; returns true when it is a new stream's first. */
  updated(address: string, first: boolean, now: number): boolean {
    this.#lastUpdateMs = now;
    if (!first) return false;
    this.address = address;
    this.#disconnectedAtMs = undefined;
    this.lastError = undefined;
    return true;
  }

  /** The stream ended at `now` (with `error`, when it failed). */
  lost(error: Error | undefined, now: number): void {
    if (this.address !== undefined) this.#disconnectedAtMs = now;
    this.address = undefined;
    if (error !== undefined) this.lastError = error;
  }

  /** How current the answers are at `now`, given whether there is a placement at all. */
  staleness(hasPlacement: boolean, now: number): Staleness {
    const connected = this.address !== undefined;
    const since = this.#disconnectedAtMs;
    return {
      connected,
      address: this.address,
      lastUpdateMs: this.#lastUpdateMs,
      ageMs: !hasPlacement
        ? Number.POSITIVE_INFINITY
        : connected || since === undefined
        ? 0
        : Math.max(0, now - since),
      disconnectedAtMs: connected ? undefined : since,
      lastError: this.lastError,
    };
  }
}
