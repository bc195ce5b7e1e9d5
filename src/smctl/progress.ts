/**
 * The progress of `executor drain --wait` on stderr: a bar redrawn in place
 * on a terminal, otherwise a line at most once a second.
 *
 * @module
 */
import { bar } from "./cells.ts";

/**
 * One progress line: a bar, the count of shards moved off the initial total,
 * and the percentage. Zero of zero is done.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { progressText } from "./progress.ts";
 *
 * const text = progressText(3, 4, 8);
 * assert.equal(text, "[██████░░] 3/4 shards moved off (75%)");
 * ```
 */
export function progressText(moved: number, total: number, width = 30): string {
  const done = Math.min(Math.max(0, moved), total);
  const percent = total <= 0 ? 100 : Math.floor((done / total) * 100);
  const shown = total <= 0 ? bar(1, 1, width) : bar(done, total, width);
  return `[${shown}] ${done}/${total} shards moved off (${percent}%)`;
}

/** Options of {@linkcode ProgressReporter}. */
export interface ProgressOptions {
  /** Writes to stderr. */
  readonly write: (text: string) => void;
  /** Whether stderr is a terminal (redraw in place) or not (lines). */
  readonly isTerminal: boolean;
  /** The clock, ms. @default {performance.now} */
  readonly now?: () => number;
  /** Least time between lines when not on a terminal, ms. @default {1000} */
  readonly minIntervalMs?: number;
  /** Bar width in cells. @default {30} */
  readonly width?: number;
}

/**
 * Shows progress updates: on a terminal every change redraws one line (`\r`,
 * then clear to end of line); otherwise a line is printed when the numbers
 * changed and a second has passed since the last one, and always at 100%.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ProgressReporter } from "./progress.ts";
 *
 * const lines: string[] = [];
 * const progress = new ProgressReporter({ write: (t) => lines.push(t), isTerminal: false });
 * progress.update(4, 4);
 * progress.finish();
 * assert.equal(lines.length, 1);
 * ```
 */
export class ProgressReporter {
  readonly #options: ProgressOptions;
  readonly #now: () => number;
  #lastText = "";
  #lastLineAt = -Infinity;
  #drawn = false;

  /** A reporter; nothing is written until the first update. */
  constructor(options: ProgressOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Reports `moved` of `total`. */
  update(moved: number, total: number): void {
    const text = progressText(moved, total, this.#options.width);
    if (text === this.#lastText) return;
    const complete = moved >= total;
    if (this.#options.isTerminal) {
      this.#options.write(`\r${text}\x1b[K`);
      this.#drawn = true;
      this.#lastText = text;
      return;
    }
    const now = this.#now();
    if (!complete && now - this.#lastLineAt < (this.#options.minIntervalMs ?? 1_000)) return;
    this.#options.write(`${text}\n`);
    this.#lastLineAt = now;
    this.#lastText = text;
  }

  /** Ends the redrawn line on a terminal (so later output starts on a new line). */
  finish(): void {
    if (this.#drawn) this.#options.write("\n");
    this.#drawn = false;
  }
}
