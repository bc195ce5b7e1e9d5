/**
 * Aligned text tables and key/value blocks for human output. Widths ignore
 * ANSI colour codes, so coloured cells line up.
 *
 * @module
 */
import { type Palette, palette as makePalette, visibleWidth } from "./colour.ts";

/** How a column is aligned. */
export type Align = "left" | "right";

/** A column of a {@linkcode renderTable} table. */
export interface Column {
  /** Header text (shown in bold when colour is on). */
  readonly header: string;
  /** Alignment; numbers read best right-aligned. @default {"left"} */
  readonly align?: Align;
}

/** Options of {@linkcode renderTable} and {@linkcode renderKeyValues}. */
export interface TableOptions {
  /** Styles the header. @default {palette(false)} */
  readonly palette?: Palette;
  /** Spaces between columns. @default {2} */
  readonly gap?: number;
}

/**
 * Renders rows under headers with every column as wide as its widest cell.
 * Lines carry no trailing spaces; the result has no final newline.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderTable } from "./table.ts";
 *
 * const text = renderTable(
 *   [{ header: "EXECUTOR" }, { header: "SHARDS", align: "right" }],
 *   [["a", "10"], ["bb", "9"]],
 * );
 * assert.equal(text, "EXECUTOR  SHARDS\na             10\nbb             9");
 * ```
 */
export function renderTable(
  columns: readonly Column[],
  rows: readonly (readonly string[])[],
  options: TableOptions = {},
): string {
  const paint = options.palette ?? makePalette(false);
  const gap = " ".repeat(options.gap ?? 2);
  for (const [i, row] of rows.entries()) {
    if (row.length !== columns.length) {
      throw new RangeError(`Row ${i} has ${row.length} cells, expected ${columns.length}`);
    }
  }
  const widths = columns.map((column, c) =>
    Math.max(visibleWidth(column.header), ...rows.map((row) => visibleWidth(row[c]!)))
  );
  const line = (cells: readonly string[], style: (text: string) => string) =>
    cells.map((cell, c) => {
      const pad = " ".repeat(widths[c]! - visibleWidth(cell));
      return columns[c]!.align === "right" ? pad + style(cell) : style(cell) + pad;
    }).join(gap).trimEnd();
  return [
    ...(headersOff > 0 ? [] : [line(columns.map((c) => c.header), paint.bold)]),
    ...rows.map((row) => line(row, (text) => text)),
  ].join("\n");
}

let headersOff = 0;

/**
 * Runs `render` with every {@linkcode renderTable} inside it leaving out its
 * header line (`--no-headers`); widths still count the headers, so columns
 * line up as they would with them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderTable, withoutHeaders } from "./table.ts";
 *
 * const text = withoutHeaders(() => renderTable([{ header: "ID" }], [["a"], ["b"]]));
 * assert.equal(text, "a\nb");
 * ```
 */
export function withoutHeaders<T>(render: () => T): T {
  headersOff++;
  try {
    return render();
  } finally {
    headersOff--;
  }
}

/**
 * Renders `label  value` pairs with the values aligned; multi-line values are
 * indented under the first line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderKeyValues } from "./table.ts";
 *
 * const text = renderKeyValues([["Owner", "a"], ["Load", "1.5"]]);
 * assert.equal(text, "Owner  a\nLoad   1.5");
 * ```
 */
export function renderKeyValues(
  pairs: readonly (readonly [string, string])[],
  options: TableOptions = {},
): string {
  const paint = options.palette ?? makePalette(false);
  const gap = options.gap ?? 2;
  const width = Math.max(0, ...pairs.map(([label]) => visibleWidth(label)));
  const indent = " ".repeat(width + gap);
  return pairs.map(([label, value]) => {
    const head = paint.bold(label) + " ".repeat(width - visibleWidth(label) + gap);
    return (head + value.split("\n").join(`\n${indent}`)).trimEnd();
  }).join("\n");
}
