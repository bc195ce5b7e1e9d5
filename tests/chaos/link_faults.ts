/**
 * How a degraded link treats each chunk of bytes the harness's TCP proxy
 * forwards: delay with jitter, "loss", and resets.
 *
 * A TCP proxy cannot drop bytes: the stream it relays must arrive whole and
 * in order, or not at all. So the model follows what a lossy network does to
 * a TCP connection as the endpoints see it:
 *
 * - **Delay and jitter.** Each chunk is held `delayMs ± jitterMs` (uniform)
 *   before it is written on. A chunk is never written before the chunk read
 *   before it in the same direction (TCP does not reorder): a chunk whose own
 *   draw ends earlier waits for its predecessor, as a TCP receiver's buffer
 *   holds out-of-order segments until the gap is filled.
 * - **Loss.** With probability `lossRate` per chunk, a segment "was lost":
 *   the sender retransmits after a retransmission timeout, and nothing behind
 *   it is delivered meanwhile. The whole connection (both directions) stalls
 *   for a time drawn from `stallMs` (Linux's minimum RTO is 200 ms and it
 *   doubles on repeated loss, hence the default 200 ms to 1 s).
 * - **Reset.** With probability `resetRate` per chunk the connection is reset
 *   (both sides closed at once), as a middlebox or a peer that gave up would.
 *
 * @module
 */

/** The knobs of a degraded link; every one defaults to "no fault". */
export interface LinkFaults {
  /** Added one-way delay per chunk, in ms. @default {0} */
  readonly delayMs?: number;
  /** The delay varies uniformly by up to this much either way, in ms (at most `delayMs`). @default {0} */
  readonly jitterMs?: number;
  /** Probability per chunk that the connection stalls (a lost segment). @default {0} */
  readonly lossRate?: number;
  /** How long a stall lasts, `[min, max]` ms, drawn uniformly. @default {[200, 1000]} */
  readonly stallMs?: readonly [number, number];
  /** Probability per chunk that the connection is reset. @default {0} */
  readonly resetRate?: number;
}

/** What to do with one chunk. */
export type ChunkFate =
  | { readonly action: "reset" }
  /** Write it at `releaseAt`; a stall (if any) holds the connection until `stallUntil`. */
  | { readonly action: "forward"; readonly releaseAt: number; readonly stallUntil: number };

/** The faults of `slow-lossy-links`: 200 ms ± 100 ms, 5% loss, a reset now and then. */
export const SLOW_LOSSY_LINK: Required<LinkFaults> = Object.freeze({
  delayMs: 200,
  jitterMs: 100,
  lossRate: 0.05,
  stallMs: [200, 1_000] as const,
  resetRate: 0.002,
});

/**
 * Validates `faults` and fills in the defaults; throws a `RangeError` naming
 * the bad knob.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveLinkFaults } from "./link_faults.ts";
 *
 * assert.deepEqual(resolveLinkFaults({ delayMs: 50 }).stallMs, [200, 1000]);
 * assert.throws(() => resolveLinkFaults({ lossRate: 2 }), RangeError);
 * ```
 */
export function resolveLinkFaults(faults: LinkFaults): Required<LinkFaults> {
  const {
    delayMs = 0,
    jitterMs = 0,
    lossRate = 0,
    stallMs = [200, 1_000],
    resetRate = 0,
  } = faults;
  const ms = (name: string, v: number) => {
    if (!Number.isFinite(v) || v < 0) {
      throw new RangeError(`${name} must be a finite number of ms >= 0, got ${v}`);
    }
  };
  const rate = (name: string, v: number) => {
    if (!(v >= 0 && v <= 1)) throw new RangeError(`${name} must be from 0 to 1, got ${v}`);
  };
  ms("delayMs", delayMs);
  ms("jitterMs", jitterMs);
  if (jitterMs > delayMs) {
    throw new RangeError(`jitterMs must not exceed delayMs (${delayMs}), got ${jitterMs}`);
  }
  rate("lossRate", lossRate);
  rate("resetRate", resetRate);
  const [low, high] = stallMs;
  ms("stallMs[0]", low);
  ms("stallMs[1]", high);
  if (low > high) throw new RangeError(`stallMs must be [min, max], got [${low}, ${high}]`);
  return { delayMs, jitterMs, lossRate, stallMs: [low, high], resetRate };
}

/**
 * The fate of one chunk read at `now` on a connection whose previous chunk
 * in this direction is released at `lastRelease` and which is stalled until
 * `stalledUntil`. `random` returns values in [0, 1).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chunkFate, resolveLinkFaults } from "./link_faults.ts";
 *
 * const faults = resolveLinkFaults({ delayMs: 200, jitterMs: 100 });
 * const fate = chunkFate(faults, { now: 1_000, lastRelease: 0, stalledUntil: 0 }, () => 0.5);
 * assert.deepEqual(fate, { action: "forward", releaseAt: 1_200, stallUntil: 0 });
 * // Never before the chunk ahead of it:
 * const later = chunkFate(faults, { now: 1_000, lastRelease: 1_400, stalledUntil: 0 }, () => 0);
 * assert.equal(later.action === "forward" && later.releaseAt, 1_400);
 * ```
 */
export function chunkFate(
  faults: Required<LinkFaults>,
  at: { readonly now: number; readonly lastRelease: number; readonly stalledUntil: number },
  random: () => number,
): ChunkFate {
  const { delayMs, jitterMs, lossRate, stallMs, resetRate } = faults;
  if (resetRate > 0 && random() < resetRate) return { action: "reset" };
  let stallUntil = at.stalledUntil;
  if (lossRate > 0 && random() < lossRate) {
    const [low, high] = stallMs;
    stallUntil = Math.max(stallUntil, at.now + low + random() * (high - low));
  }
  const jitter = jitterMs === 0 ? 0 : (random() * 2 - 1) * jitterMs;
  const releaseAt = Math.max(at.now + delayMs + jitter, at.lastRelease, stallUntil);
  return { action: "forward", releaseAt, stallUntil };
}
