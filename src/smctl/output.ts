/**
 * Where smctl writes: results on stdout (a table for people, one JSON
 * document with `--json`), warnings and progress on stderr.
 *
 * @module
 */
import { colourWanted, type Palette, palette } from "./colour.ts";

/** A byte sink such as `Deno.stdout`. */
export interface Sink {
  /** Writes some of `bytes`, returning how many. */
  writeSync(bytes: Uint8Array): number;
  /** Whether it is a terminal. */
  isTerminal(): boolean;
}

/** Options of {@linkcode Output}. */
export interface OutputOptions {
  /** Machine-readable output. @default {false} */
  readonly json?: boolean;
  /** Result stream. @default {Deno.stdout} */
  readonly stdout?: Sink;
  /** Message stream. @default {Deno.stderr} */
  readonly stderr?: Sink;
  /** The value of `NO_COLOR`. @default {Deno.env.get("NO_COLOR")} */
  readonly noColor?: string | undefined;
}

const encoder = new TextEncoder();

/**
 * smctl's output streams and how to style them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Output, type Sink } from "./output.ts";
 *
 * let written = "";
 * const stdout: Sink = {
 *   writeSync: (bytes) => (written += new TextDecoder().decode(bytes), bytes.length),
 *   isTerminal: () => false,
 * };
 * new Output({ json: false, stdout }).result({ deleted: 3 }, () => "Deleted 3 keys.");
 * new Output({ json: true, stdout }).result({ deleted: 3 }, () => "Deleted 3 keys.");
 * assert.equal(written, 'Deleted 3 keys.\n{\n  "deleted": 3\n}\n');
 * ```
 */
export class Output {
  /** Whether results are JSON. */
  readonly json: boolean;
  /** Styles for human output (plain unless stdout is a colour terminal). */
  readonly palette: Palette;
  /** Whether stdout is a terminal. */
  readonly stdoutIsTerminal: boolean;
  /** Whether stderr is a terminal. */
  readonly stderrIsTerminal: boolean;
  readonly #stdout: Sink;
  readonly #stderr: Sink;

  /** Wraps the streams; see {@linkcode OutputOptions} for defaults. */
  constructor(options: OutputOptions = {}) {
    this.json = options.json ?? false;
    this.#stdout = options.stdout ?? Deno.stdout;
    this.#stderr = options.stderr ?? Deno.stderr;
    this.stdoutIsTerminal = this.#stdout.isTerminal();
    this.stderrIsTerminal = this.#stderr.isTerminal();
    const noColor = "noColor" in options ? options.noColor : Deno.env.get("NO_COLOR");
    this.palette = palette(
      colourWanted({ isTerminal: this.stdoutIsTerminal, noColor, json: this.json }),
    );
  }

  /** Prints `value` as JSON with `--json`, otherwise the text `human()` returns. */
  result(value: unknown, human: () => string): void {
    if (this.json) this.printJson(value);
    else this.line(human());
  }

  /** Prints one indented JSON document and a newline on stdout. */
  printJson(value: unknown): void {
    this.write(JSON.stringify(value, null, 2) + "\n");
  }

  /** Prints `text` and a newline on stdout. */
  line(text: string): void {
    this.write(text + "\n");
  }

  /** Prints `smctl: warning: <text>` on stderr. */
  warn(text: string): void {
    this.writeErr(`smctl: warning: ${text}\n`);
  }

  /** Writes `text` as is on stdout. */
  write(text: string): void {
    writeAll(this.#stdout, text);
  }

  /** Writes `text` as is on stderr (progress, prompts). */
  writeErr(text: string): void {
    writeAll(this.#stderr, text);
  }
}

function writeAll(sink: Sink, text: string): void {
  let bytes = encoder.encode(text);
  while (bytes.length > 0) bytes = bytes.subarray(sink.writeSync(bytes));
}
