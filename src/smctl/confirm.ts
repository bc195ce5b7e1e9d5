/**
 * Confirmation of destructive commands: the operator retypes a name.
 *
 * @module
 */
import { SmctlError, UsageError } from "./errors.ts";
import { ExitCode } from "./exit_codes.ts";

/**
 * Reads one line (without its line ending) from `stream`, or null when the
 * stream ends before any character. The stream is released afterwards.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readLine } from "./confirm.ts";
 *
 * const line = await readLine(ReadableStream.from([new TextEncoder().encode("orders\n")]));
 * assert.equal(line, "orders");
 * ```
 */
export async function readLine(stream: ReadableStream<Uint8Array>): Promise<string | null> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) return text === "" ? null : text;
      text += decoder.decode(value, { stream: true });
      const end = text.indexOf("\n");
      if (end >= 0) return text.slice(0, end).replace(/\r$/, "");
    }
  } finally {
    reader.releaseLock();
  }
}

/** What {@linkcode confirmByRetyping} needs. */
export interface ConfirmOptions {
  /** What the operator must type. */
  readonly expected: string;
  /** The question, printed on stderr before reading. */
  readonly prompt: string;
  /** Whether stdin is a terminal; without one there is nobody to ask. */
  readonly stdinIsTerminal: boolean;
  /** Reads the answer. */
  readonly readAnswer: () => Promise<string | null>;
  /** Writes the prompt (to stderr). */
  readonly write: (text: string) => void;
  /** What to do with `--yes` for the refusal message, e.g. `reset namespace "x"`. */
  readonly action: string;
}

/**
 * Asks the operator to retype `expected`. Throws a usage error when stdin is
 * not a terminal (pass `--yes` instead), and an error (exit code 1) when the
 * answer differs.
 *
 * @example
 * ```ts
 * import { confirmByRetyping } from "./confirm.ts";
 *
 * await confirmByRetyping({
 *   expected: "orders",
 *   prompt: "Type the namespace name to confirm: ",
 *   stdinIsTerminal: true,
 *   readAnswer: () => Promise.resolve("orders"),
 *   write: () => {},
 *   action: 'reset namespace "orders"',
 * });
 * ```
 */
export async function confirmByRetyping(options: ConfirmOptions): Promise<void> {
  if (!options.stdinIsTerminal) {
    throw new UsageError(
      `refusing to ${options.action}: stdin is not a terminal, so nobody can confirm; pass --yes to skip the confirmation`,
    );
  }
  options.write(options.prompt);
  const answer = (await options.readAnswer())?.trim();
  if (answer !== options.expected) {
    throw new SmctlError(
      `confirmation did not match (typed ${JSON.stringify(answer ?? "")}, expected ${
        JSON.stringify(options.expected)
      }); did not ${options.action}`,
      ExitCode.ERROR,
    );
  }
}
