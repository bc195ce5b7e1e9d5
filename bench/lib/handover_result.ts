/**
 * What one scenario of the handover suite measured, as figures and as the
 * side-by-side table of the report: one column per warm-handover mode, so
 * that the `on` column of issue 40 lands beside today's `off`.
 *
 * @module
 */
import type { TallySummary } from "../../examples/sharded_counter/tally.ts";
import { type Figure, formatNumber, type ReportTable } from "./result.ts";
import { percentile } from "./stats.ts";

/** Warm handover off (today's cold moves); `"on"` joins when the protocol lands. */
export type HandoverMode = "off" | "on";

/** The modes the suite measures, in column order. */
export const HANDOVER_MODES: readonly HandoverMode[] = ["off", "on"];

/** One scenario in one namespace and mode. */
export interface ScenarioResult {
  /** The namespace's ownership. */
  readonly ownership: "available" | "exclusive";
  /** E.g. "rolling replacement of 4 executors". */
  readonly scenario: string;
  /** Warm handover on or off. */
  readonly mode: HandoverMode;
  /** The clients' counts over the scenario. */
  readonly tally: TallySummary;
  /** Time each moved shard was served by nobody, ms, one per move. */
  readonly unservedMs: readonly number[];
  /** Time from each SIGTERM to the node's exit, ms. */
  readonly exitMs: readonly number[];
}

const ms = (value: number) => formatNumber(value, 0);
const p = (samples: readonly number[], q: number) => percentile(samples, q);

/**
 * The figures of a scenario (one sample each: one run).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scenarioFigures } from "./handover_result.ts";
 *
 * const tally = { requests: 10, ok: 9, cold: 1, failed: 0, retries: 0, lost: 0, p50Ms: 2, p99Ms: 9, maxMs: 9 };
 * const figures = scenarioFigures({
 *   ownership: "exclusive",
 *   scenario: "scale-out",
 *   mode: "off",
 *   tally,
 *   unservedMs: [100, 300],
 *   exitMs: [],
 * });
 * assert.ok(figures.some((f) => f.label.endsWith("unserved time per move, p99") && f.samples[0] === 298));
 * ```
 */
export function scenarioFigures(r: ScenarioResult): Figure[] {
  const name = `${r.ownership}, ${r.scenario}, warm handover ${r.mode}`;
  const count = (label: string, value: number): Figure => ({
    label: `${name}: ${label}`,
    unit: "requests",
    samples: [value],
  });
  const time = (label: string, value: number): Figure => ({
    label: `${name}: ${label}`,
    unit: "ms",
    samples: [value],
  });
  const figures = [
    count(`requests failed (of ${formatNumber(r.tally.requests)})`, r.tally.failed),
    count("requests served cold", r.tally.cold),
    { ...count("retries", r.tally.retries), unit: "attempts" },
    time("request latency p99", r.tally.p99Ms),
  ];
  if (r.unservedMs.length > 0) {
    figures.push(
      time("unserved time per move, p50", p(r.unservedMs, 50)),
      time("unserved time per move, p99", p(r.unservedMs, 99)),
    );
  }
  if (r.exitMs.length > 0) figures.push(time("SIGTERM to exit, p50", p(r.exitMs, 50)));
  return figures;
}

/**
 * The report's table: a row per namespace, scenario and figure, a column
 * per mode measured.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { comparisonTable } from "./handover_result.ts";
 *
 * const tally = { requests: 10, ok: 9, cold: 1, failed: 0, retries: 0, lost: 0, p50Ms: 2, p99Ms: 9, maxMs: 9 };
 * const table = comparisonTable([
 *   { ownership: "available", scenario: "scale-out", mode: "off", tally, unservedMs: [], exitMs: [] },
 * ]);
 * assert.deepEqual(table.header.slice(3), ["warm handover off"]);
 * assert.equal(table.rows[0]![3], "9 / 1 / 0 (0)");
 * ```
 */
export function comparisonTable(results: readonly ScenarioResult[]): ReportTable {
  const modes = HANDOVER_MODES.filter((m) => results.some((r) => r.mode === m));
  const keys = [...new Set(results.map((r) => `${r.ownership}\u0000${r.scenario}`))];
  const rows: string[][] = [];
  for (const key of keys) {
    const [ownership, scenario] = key.split("\u0000") as [string, string];
    const of = (mode: HandoverMode) =>
      results.find((r) => r.ownership === ownership && r.scenario === scenario && r.mode === mode);
    const line = (figure: string, cell: (r: ScenarioResult) => string) =>
      rows.push([
        ownership,
        scenario,
        figure,
        ...modes.map((m) => {
          const r = of(m);
          return r === undefined ? "" : cell(r);
        }),
      ]);
    line(
      "requests ok / cold / failed (never served)",
      ({ tally: t }) =>
        `${formatNumber(t.ok)} / ${formatNumber(t.cold)} / ${formatNumber(t.failed)} (${
          formatNumber(t.lost)
        })`,
    );
    line("retries", (r) => formatNumber(r.tally.retries));
    line(
      "latency p50 / p99 / max, ms",
      ({ tally: t }) => `${ms(t.p50Ms)} / ${ms(t.p99Ms)} / ${ms(t.maxMs)}`,
    );
    line(
      "moves; unserved per move p50 / p99, ms",
      ({ unservedMs: u }) =>
        u.length === 0 ? "0" : `${u.length}; ${ms(p(u, 50))} / ${ms(p(u, 99))}`,
    );
    line(
      "SIGTERM to exit p50 / max, ms",
      ({ exitMs: e }) => e.length === 0 ? "—" : `${ms(p(e, 50))} / ${ms(Math.max(...e))}`,
    );
  }
  return {
    caption: "Side by side (one column per warm-handover mode measured):",
    header: ["Namespace", "Scenario", "Figure", ...modes.map((m) => `warm handover ${m}`)],
    rows,
  };
}

/**
 * What the "on" column says against issue 40's goals, in sentences computed
 * from the results (nothing when warm handover was not measured).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { goalFindings } from "./handover_result.ts";
 *
 * const tally = { requests: 10, ok: 10, cold: 0, failed: 0, retries: 0, lost: 0, p50Ms: 1, p99Ms: 2, maxMs: 3 };
 * const found = goalFindings([
 *   { ownership: "available", scenario: "s", mode: "on", tally, unservedMs: [0], exitMs: [] },
 *   { ownership: "exclusive", scenario: "s", mode: "on", tally, unservedMs: [60], exitMs: [] },
 * ]);
 * assert.match(found[0]!, /0 failed and 0 cold requests over every scenario \(goal: 0 and 0, met\)/);
 * assert.match(found[1]!, /p99 60 ms at worst \(goal: 100 ms, met\)/);
 * ```
 */
export function goalFindings(results: readonly ScenarioResult[]): string[] {
  const on = results.filter((r) => r.mode === "on");
  if (on.length === 0) return [];
  const out: string[] = [];
  const available = on.filter((r) => r.ownership === "available");
  if (available.length > 0) {
    const failed = available.reduce((n, r) => n + r.tally.failed, 0);
    const cold = available.reduce((n, r) => n + r.tally.cold, 0);
    const met = failed === 0 && cold === 0;
    out.push(
      `Warm handover on, available namespace: ${failed} failed and ${cold} cold requests over ` +
        `every scenario (goal: 0 and 0, ${met ? "met" : "not met"}).`,
    );
  }
  const exclusive = on.filter((r) => r.ownership === "exclusive" && r.unservedMs.length > 0);
  if (exclusive.length > 0) {
    const worst = Math.max(...exclusive.map((r) => p(r.unservedMs, 99)));
    out.push(
      `Warm handover on, exclusive namespace: unserved time per move p99 ${ms(worst)} ms at ` +
        `worst (goal: 100 ms, ${worst <= 100 ? "met" : "not met"}).`,
    );
  }
  const exits = on.flatMap((r) => r.exitMs);
  const drained = on.filter((r) => r.scenario.startsWith("drain")).flatMap((r) => r.exitMs);
  if (exits.length > 0) {
    out.push(
      `Warm handover on: SIGTERM to exit up to ${ms(Math.max(...exits))} ms. A node that gets ` +
        "SIGTERM while it still owns shards serves them until their new owners have prepared " +
        "them (the load, round trips and the handoff grace), so its exit waits for the prepare; " +
        "2 × the slowest stop + 100 ms holds only for a node drained first" +
        (drained.length > 0 ? ` (the drained zone's nodes: ${ms(Math.max(...drained))} ms)` : "") +
        ", as docs/operations.md advises for rolling deploys.",
    );
  }
  return out;
}
