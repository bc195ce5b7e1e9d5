/**
 * Turns a recording into intervals: when each processor ran, when each
 * process was paused, and when etcd had no quorum.
 *
 * @module
 */
import type { ChaosEvent } from "./events.ts";

/** One processor's run: `[from, to)`; `open` when it was still running at the end. */
export interface RunInterval {
  readonly namespace: string;
  readonly shard: string;
  readonly executor: string;
  readonly process: string;
  readonly token: string;
  readonly from: number;
  readonly to: number;
  readonly open: boolean;
}

/** A time window `[from, to)`; `to` is `Infinity` when it had not ended. */
export interface Window {
  readonly from: number;
  readonly to: number;
}

/** Events up to `until`, ordered by time (stable for equal times). */
export function upTo(events: readonly ChaosEvent[], until: number): ChaosEvent[] {
  return events.filter((e) => e.at <= until).map((e, i) => [e, i] as const)
    .sort(([a, i], [b, j]) => a.at - b.at || i - j).map(([e]) => e);
}

/**
 * Pairs each processor start with its stop. A second start of a processor
 * that is already running is ignored, as is a stop with no start; a
 * processor still running at `until` gets `to = until` and `open`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runIntervals } from "./intervals.ts";
 *
 * const base = { process: "p", executor: "e", namespace: "n", shard: "1" };
 * const runs = runIntervals([
 *   { type: "start", at: 10, token: "5", ...base },
 *   { type: "stop", at: 20, ...base },
 * ], 100);
 * assert.equal(runs[0]!.from, 10);
 * assert.equal(runs[0]!.to, 20);
 * ```
 */
export function runIntervals(events: readonly ChaosEvent[], until: number): RunInterval[] {
  const open = new Map<string, { process: string; token: string; from: number }>();
  const done: RunInterval[] = [];
  const split = (key: string) => {
    const [namespace = "", shard = "", executor = ""] = key.split("\u0000");
    return { namespace, shard, executor };
  };
  for (const e of upTo(events, until)) {
    if (e.type !== "start" && e.type !== "stop") continue;
    const key = [e.namespace, e.shard, e.executor].join("\u0000");
    const running = open.get(key);
    if (e.type === "start") {
      if (running === undefined) open.set(key, { process: e.process, token: e.token, from: e.at });
    } else if (running !== undefined) {
      open.delete(key);
      done.push({ ...split(key), ...running, to: e.at, open: false });
    }
  }
  for (const [key, running] of open) {
    done.push({ ...split(key), ...running, to: until, open: true });
  }
  return done.sort((a, b) => a.from - b.from);
}

/** SIGSTOP to SIGCONT windows, by process name. */
export function pauseWindows(events: readonly ChaosEvent[], until: number): Map<string, Window[]> {
  const paused = new Map<string, number>();
  const windows = new Map<string, Window[]>();
  const add = (process: string, window: Window) =>
    windows.set(process, [...windows.get(process) ?? [], window]);
  for (const e of upTo(events, until)) {
    if (e.type === "pause" && !paused.has(e.process)) paused.set(e.process, e.at);
    if (e.type === "resume" && paused.has(e.process)) {
      add(e.process, { from: paused.get(e.process)!, to: e.at });
      paused.delete(e.process);
    }
  }
  for (const [process, from] of paused) add(process, { from, to: Infinity });
  return windows;
}

/** Windows during which etcd had no quorum. */
export function quorumLossWindows(events: readonly ChaosEvent[], until: number): Window[] {
  const windows: Window[] = [];
  let lostAt: number | undefined;
  for (const e of upTo(events, until)) {
    if (e.type !== "quorum") continue;
    if (!e.available && lostAt === undefined) lostAt = e.at;
    if (e.available && lostAt !== undefined) {
      windows.push({ from: lostAt, to: e.at });
      lostAt = undefined;
    }
  }
  if (lostAt !== undefined) windows.push({ from: lostAt, to: Infinity });
  return windows;
}
