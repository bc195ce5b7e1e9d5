/**
 * The results as a plain-text table for the terminal and as Markdown rows.
 *
 * @module
 */
import { type Figure, formatNumber, type SuiteResult, summaryOf, verdict } from "./result.ts";

/** One row per figure: the cells both renderings share. */
export function rowsOf(results: readonly SuiteResult[]): string[][] {
  const rows: string[][] = [];
  for (const result of results) {
    if (result.error !== undefined) {
      rows.push([result.title, `FAILED: ${result.error.split("\n")[0]}`, "", "", "", "", "", ""]);
    }
    for (const figure of result.figures) rows.push([result.title, ...cells(figure)]);
  }
  return rows;
}

/** Figure, median, min, max, runs, target, verdict. */
export function cells(figure: Figure): string[] {
  const s = summaryOf(figure);
  const d = figure.digits ?? 0;
  const unit = figure.unit === "×" ? "×" : ` ${figure.unit}`;
  return [
    figure.label,
    `${formatNumber(s.median, d)}${unit}`,
    formatNumber(s.min, d),
    formatNumber(s.max, d),
    String(s.n),
    figure.target?.text ?? "",
    verdict(figure),
  ];
}

/** Header of the table. */
export const HEADER: readonly string[] = [
  "Measurement",
  "Figure",
  "Median",
  "Min",
  "Max",
  "Runs",
  "Target",
  "Verdict",
];

/**
 * A fixed-width text table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { textTable } from "./table.ts";
 *
 * assert.ok(textTable([["a", "b"], ["ccc", "d"]]).includes("ccc"));
 * ```
 */
export function textTable(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length)));
  const line = (r: readonly string[]) =>
    r.map((cell, c) => cell.padEnd(widths[c]!)).join("  ").trimEnd();
  return [line(rows[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)]
    .join("\n");
}
