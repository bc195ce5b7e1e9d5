/**
 * What a suite reports: figures (samples over repeated runs, with an optional
 * target), how they were measured, and what was found.
 *
 * @module
 */
import type { Scope } from "./scope.ts";
import { summarize, type Summary } from "./stats.ts";

/** A comparison against a target. */
export type Op = "<" | "<=" | ">" | ">=";

/** A target: the median must satisfy `median <op> value`. */
export interface Target {
  /** How to compare. */
  readonly op: Op;
  /** The threshold, in the figure's unit. */
  readonly value: number;
  /** As the issue states it, e.g. "p99 < 100 ms". */
  readonly text: string;
}

/** One measured figure. */
export interface Figure {
  /** What it is, e.g. "p99, all 1,000 spectators hold the move". */
  readonly label: string;
  /** Unit, e.g. "ms", "req/s", "MiB", "×". */
  readonly unit: string;
  /** One sample per run. */
  readonly samples: readonly number[];
  /** Decimals to show. @default {0} */
  readonly digits?: number;
  /** The target, when the issue sets one. */
  readonly target?: Target;
}

/**
 * A table the report prints as it is, after the suite's figures: for
 * figures compared side by side (one column per variant measured).
 */
export interface ReportTable {
  /** A sentence above it. */
  readonly caption: string;
  /** Column headings. */
  readonly header: readonly string[];
  /** Rows of cells, as many as headings. */
  readonly rows: readonly (readonly string[])[];
}

/** What a suite hands back. */
export interface SuiteOutput {
  /** Figures. */
  readonly figures: Figure[];
  /** Tables of its own, printed after the figures. @default {none} */
  readonly tables?: readonly ReportTable[];
  /** How it was measured (setup, sizes, timings), one point per line. */
  readonly method: string[];
  /** Observations, evidence and limits, one point per line. */
  readonly findings: string[];
}

/** A suite's stored result. */
export interface SuiteResult extends SuiteOutput {
  /** Suite name (`--only` key). */
  readonly name: string;
  /** Heading. */
  readonly title: string;
  /** Quick or full. */
  readonly mode: "quick" | "full";
  /** When it started (ISO). */
  readonly startedAt: string;
  /** How long it took. */
  readonly seconds: number;
  /** 1-minute load average of the machine when it started. */
  readonly loadAverage: number;
  /** The code measured (git commit at its start). */
  readonly source?: string;
  /** Why it failed, if it did. */
  readonly error?: string;
}

/** What a suite gets to work with. */
export interface SuiteContext {
  /** Smaller sizes and fewer repeats. */
  readonly quick: boolean;
  /** Also run the services under `--cpu-prof` once and report their hottest functions. */
  readonly profile: boolean;
  /** Owns every process the suite starts. */
  readonly scope: Scope;
  /** A directory for profiles and logs of this run. */
  readonly artifacts: string;
  /** Prints a progress line. */
  progress(message: string): void;
}

/** A measurement. */
export interface Suite {
  /** Short name, used by `--only`. */
  readonly name: string;
  /** Heading, e.g. "4. Propagation latency". */
  readonly title: string;
  /** Runs it. */
  run(context: SuiteContext): Promise<SuiteOutput>;
}

/**
 * `{ target }` in a full run, nothing in a quick one: for targets stated at
 * sizes a quick run does not reach.
 */
export function fullOnly(context: SuiteContext, target: Target): { target?: Target } {
  return context.quick ? {} : { target };
}

/** Whether a figure meets its target: "met", "not met", or "" without a target. */
export function verdict(figure: Figure): "met" | "not met" | "" {
  const { target } = figure;
  if (target === undefined) return "";
  const m = summarize(figure.samples).median;
  const ok = target.op === "<"
    ? m < target.value
    : target.op === "<="
    ? m <= target.value
    : target.op === ">"
    ? m > target.value
    : m >= target.value;
  return ok ? "met" : "not met";
}

/** The summary of a figure's samples. */
export function summaryOf(figure: Figure): Summary {
  return summarize(figure.samples);
}

/**
 * A number for people: thousands separated, `digits` decimals.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatNumber } from "./result.ts";
 *
 * assert.equal(formatNumber(12345.678, 1), "12,345.7");
 * ```
 */
export function formatNumber(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return "—";
  return value.toLocaleString("en-US", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}
