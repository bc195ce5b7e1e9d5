/**
 * A stream of request keys as a key-range spectator sees them: `count` draws
 * from keys `key-0` ... `key-(keys - 1)`, key N drawn with weight
 * 1 / (N + 1)^s (the range suite's load model), from a seeded generator so
 * that every run routes the same stream.
 *
 * @module
 */

/**
 * `count` key numbers drawn from a Zipf law with exponent `s` over `keys`
 * keys (seed `seed`).
 */
export function zipfRequests(options: {
  readonly keys: number;
  readonly s: number;
  readonly count: number;
  readonly seed?: number;
}): Uint32Array {
  const cumulative = new Float64Array(options.keys);
  let total = 0;
  for (let i = 0; i < options.keys; i++) {
    total += 1 / Math.pow(i + 1, options.s);
    cumulative[i] = total;
  }
  let state = (options.seed ?? 1) >>> 0;
  const out = new Uint32Array(options.count);
  for (let n = 0; n < options.count; n++) {
    // mulberry32: small, seeded, good enough to draw benchmark requests.
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const u = (((t ^ (t >>> 14)) >>> 0) / 0x1_0000_0000) * total;
    let a = 0, b = options.keys - 1;
    while (a < b) {
      const m = (a + b) >>> 1;
      if (cumulative[m]! < u) a = m + 1;
      else b = m;
    }
    out[n] = a;
  }
  return out;
}
