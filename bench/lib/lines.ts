/**
 * Reading a byte stream as text lines, for child processes' output.
 *
 * @module
 */

/**
 * Calls `onLine` for every line of `stream` (without the newline); resolves
 * when the stream ends.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readLines } from "./lines.ts";
 *
 * const lines: string[] = [];
 * await readLines(ReadableStream.from([new TextEncoder().encode("a\nb\n")]), (l) => lines.push(l));
 * assert.equal(lines.join(), "a,b");
 * ```
 */
export async function readLines(
  stream: ReadableStream<Uint8Array>,
  onLine: (line: string) => void,
): Promise<void> {
  let rest = "";
  try {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      rest += chunk;
      let newline;
      while ((newline = rest.indexOf("\n")) >= 0) {
        onLine(rest.slice(0, newline));
        rest = rest.slice(newline + 1);
      }
    }
  } catch { /* the process died; what was read is all there is */ }
  if (rest !== "") onLine(rest);
}

/** The last `size` lines seen, for error messages. */
export class Tail {
  readonly #size: number;
  #lines: string[] = [];

  /** Keeps at most `size` lines. */
  constructor(size = 40) {
    this.#size = size;
  }

  /** Adds a line. */
  push(line: string): void {
    this.#lines.push(line);
    if (this.#lines.length > 2 * this.#size) this.#lines = this.#lines.slice(-this.#size);
  }

  /** The kept lines, joined. */
  toString(): string {
    return this.#lines.slice(-this.#size).join("\n");
  }
}
