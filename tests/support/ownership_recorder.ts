/**
 * Checks exclusive ownership from what SDK child processes printed: every
 * processor start and stop with its wall-clock time (one host, one clock).
 *
 * @module
 */
import type { SdkProcess } from "./sdk_process.ts";

/** One processor's life on one executor. */
export interface Interval {
  readonly executor: string;
  readonly shard: string;
  readonly token: string;
  readonly start: number;
  /** When it stopped; for a killed process, when it was killed; Infinity while running. */
  readonly stop: number;
}

/** An executor process under observation. */
export interface Observed {
  readonly name: string;
  readonly process: SdkProcess;
  /** Set once the process was killed (Date.now() after it exited). */
  killedAt?: number;
}

/** Every processor interval of `executors`, sorted by start. */
export function intervals(executors: readonly Observed[]): Interval[] {
  const out: Interval[] = [];
  for (const e of executors) {
    const open = new Map<string, { start: number; token: string }>();
    for (const event of e.process.events) {
      if (event.event === "start" && event.shard !== undefined) {
        open.set(event.shard, { start: event.at, token: event.token ?? "" });
      } else if (event.event === "stop" && event.shard !== undefined) {
        const started = open.get(event.shard);
        if (!started) continue;
        open.delete(event.shard);
        out.push({ executor: e.name, shard: event.shard, ...started, stop: event.at });
      }
    }
    for (const [shard, started] of open) {
      out.push({ executor: e.name, shard, ...started, stop: e.killedAt ?? Infinity });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Pairs of intervals of one shard on two executors that overlap in time. */
export function overlaps(all: readonly Interval[]): [Interval, Interval][] {
  const found: [Interval, Interval][] = [];
  for (const [i, a] of all.entries()) {
    for (const b of all.slice(i + 1)) {
      if (a.shard !== b.shard || a.executor === b.executor) continue;
      if (b.start < a.stop && a.start < b.stop) found.push([a, b]);
    }
  }
  return found;
}

/** For each shard that moved: the gap from the old processor's stop to the new one's start. */
export function gaps(all: readonly Interval[]): number[] {
  const byShard = new Map<string, Interval[]>();
  for (const i of all) byShard.set(i.shard, [...byShard.get(i.shard) ?? [], i]);
  const out: number[] = [];
  for (const list of byShard.values()) {
    for (let k = 1; k < list.length; k++) {
      const before = list[k - 1]!, after = list[k]!;
      if (before.executor !== after.executor && Number.isFinite(before.stop)) {
        out.push(after.start - before.stop);
      }
    }
  }
  return out;
}

/** Tokens of a shard's successive owners grow. */
export function tokensGrow(all: readonly Interval[]): boolean {
  const last = new Map<string, Interval>();
  for (const i of all) {
    const before = last.get(i.shard);
    if (before && before.executor !== i.executor && !(BigInt(i.token) > BigInt(before.token))) {
      return false;
    }
    last.set(i.shard, i);
  }
  return true;
}

/** The q-quantile (0..1) of `values`, nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

/** Resolves when `condition` holds, polling every 50 ms; rejects after `timeoutMs`. */
export async function until(
  condition: () => boolean,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Shards whose processor runs on `executor` now. */
export function running(all: readonly Interval[], executor: string): string[] {
  return all.filter((i) => i.executor === executor && i.stop === Infinity).map((i) => i.shard)
    .sort((a, b) => Number(a) - Number(b));
}
