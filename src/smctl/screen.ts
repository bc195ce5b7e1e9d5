/**
 * A block of lines redrawn in place on a terminal with ANSI cursor control,
 * with the cursor hidden while it is live.
 *
 * @module
 */

const HIDE_CURSOR = "\x1b[?25l";
const SHOW_CURSOR = "\x1b[?25h";
const CLEAR_BELOW = "\x1b[J";

/**
 * Redraws a frame over the previous one: moves the cursor up over the lines
 * drawn last time, clears to the end of the screen, writes the new lines.
 * Lines must fit the terminal's width (a wrapped line would throw the count
 * off); the caller cuts them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LiveScreen } from "./screen.ts";
 *
 * let out = "";
 * const screen = new LiveScreen((text) => out += text);
 * screen.draw(["a", "b"]);
 * screen.draw(["c"]);
 * screen.close();
 * assert.equal(out, "\x1b[?25la\nb\n\x1b[2A\x1b[Jc\n\x1b[?25h");
 * ```
 */
export class LiveScreen {
  readonly #write: (text: string) => void;
  #lines = 0;
  #open = true;

  /** Hides the cursor until {@linkcode LiveScreen.close}. */
  constructor(write: (text: string) => void) {
    this.#write = write;
    write(HIDE_CURSOR);
  }

  /** Replaces the previous frame with `lines`. */
  draw(lines: readonly string[]): void {
    if (!this.#open) return;
    const up = this.#lines > 0 ? `\x1b[${this.#lines}A${CLEAR_BELOW}` : "";
    this.#write(up + lines.map((line) => `${line}\n`).join(""));
    this.#lines = lines.length;
  }

  /** Leaves the last frame on screen and shows the cursor again. Idempotent. */
  close(): void {
    if (!this.#open) return;
    this.#open = false;
    this.#write(SHOW_CURSOR);
  }
}
