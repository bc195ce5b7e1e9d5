/**
 * Where smctl writes: results on stdout in the `-o` format (a table for
 * people, `wide` with more columns, one JSON or YAML document for programs),
 * warnings and progress on stderr. Every command prints through here, so a
 * new command gets `-o table|wide|json|yaml` by calling
 * {@linkcode Output.result}.
 *
 * @module
 */
import { stringify as toYaml } from "yaml";
import { colourWanted, type Palette, palette } from "./colour.ts";
import type { JsonPathTemplate } from "./jsonpath.ts";
import { withoutHeaders } from "./table.ts";

/** The `-o` formats. */
export const OUTPUT_FORMATS = ["table", "wide", "json", "yaml"] as const;

/** One of {@linkcode OUTPUT_FORMATS}, or `jsonpath` (`-o jsonpath=TEMPLATE`). */
export type OutputFormat = typeof OUTPUT_FORMATS[number] | "jsonpath";

/** A byte sink such as `Deno.stdout`. */
export interface Sink {
  /** Writes some of `bytes`, returning how many. */
  writeSync(bytes: Uint8Array): number;
  /** Whether it is a terminal. */
  isTerminal(): boolean;
}

/** Options of {@linkcode Output}. */
export interface OutputOptions {
  /** The result format. @default {"table"}, or `"json"` when `json` is set */
  readonly format?: OutputFormat;
  /** Shorthand for `format: "json"` (the `--json` flag). @default {false} */
  readonly json?: boolean;
  /** Result stream. @default {Deno.stdout} */
  readonly stdout?: Sink;
  /** Message stream. @default {Deno.stderr} */
  readonly stderr?: Sink;
  /** The value of `NO_COLOR`. @default {Deno.env.get("NO_COLOR")} */
  readonly noColor?: string | undefined;
  /** The template of `-o jsonpath=...` (with format `jsonpath`). */
  readonly jsonpath?: JsonPathTemplate;
  /** `--no-headers`: tables without their header line. @default {false} */
  readonly noHeaders?: boolean;
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
  /** The result format. */
  readonly format: OutputFormat;
  /** Whether results are for programs (JSON or YAML): no tables, no colour, no live screens. */
  readonly json: boolean;
  /** Whether tables show their extra columns (`-o wide`). */
  readonly wide: boolean;
  /** Styles for human output (plain unless stdout is a colour terminal). */
  readonly palette: Palette;
  /** Whether stdout is a terminal. */
  readonly stdoutIsTerminal: boolean;
  /** Whether stderr is a terminal. */
  readonly stderrIsTerminal: boolean;
  readonly #stdout: Sink;
  readonly #stderr: Sink;
  readonly #jsonpath: JsonPathTemplate | undefined;
  readonly #noHeaders: boolean;

  /** Wraps the streams; see {@linkcode OutputOptions} for defaults. */
  constructor(options: OutputOptions = {}) {
    this.format = options.format ?? (options.json ? "json" : "table");
    if (this.format === "jsonpath" && options.jsonpath === undefined) {
      throw new TypeError("Output format jsonpath needs its template (options.jsonpath)");
    }
    this.#jsonpath = options.jsonpath;
    this.#noHeaders = options.noHeaders === true;
    this.json = this.format === "json" || this.format === "yaml" || this.format === "jsonpath";
    this.wide = this.format === "wide";
    this.#stdout = options.stdout ?? Deno.stdout;
    this.#stderr = options.stderr ?? Deno.stderr;
    this.stdoutIsTerminal = this.#stdout.isTerminal();
    this.stderrIsTerminal = this.#stderr.isTerminal();
    const noColor = "noColor" in options ? options.noColor : Deno.env.get("NO_COLOR");
    this.palette = palette(
      colourWanted({ isTerminal: this.stdoutIsTerminal, noColor, json: this.json }),
    );
  }

  /**
   * Prints `value` as one JSON or YAML document with `-o json|yaml`, otherwise
   * the text `human(wide)` returns (`wide` under `-o wide`).
   */
  result(value: unknown, human: (wide: boolean) => string): void {
    if (this.json) this.printJson(value);
    else this.line(this.humanText(human));
  }

  /** The text `human` makes for people, in this output's width, without headers under `--no-headers`. */
  humanText(human: (wide: boolean) => string): string {
    return this.#noHeaders ? withoutHeaders(() => human(this.wide)) : human(this.wide);
  }

  /** Prints one document in the machine format: indented JSON, or YAML with `-o yaml`. */
  printJson(value: unknown): void {
    if (this.#jsonpath) this.#writeJsonPath(value);
    else if (this.format === "yaml") this.write(toYaml(plain(value)));
    else this.write(JSON.stringify(value, null, 2) + "\n");
  }

  /**
   * Prints one record of a stream (`namespace watch`): a compact JSON line, or
   * a YAML document after `---` with `-o yaml`.
   */
  record(value: unknown): void {
    if (this.#jsonpath) this.#writeJsonPath(value);
    else if (this.format === "yaml") this.write(`---\n${toYaml(plain(value))}`);
    else this.write(JSON.stringify(value) + "\n");
  }

  /** The template's text of `value`, ended with a newline unless it ends with one. */
  #writeJsonPath(value: unknown): void {
    const text = this.#jsonpath!.apply(plain(value));
    this.write(text.endsWith("\n") ? text : `${text}\n`);
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

/**
 * What JSON.stringify would make of `value` (dates as strings, no undefined, no
 * functions), for YAML. Built directly: a `JSON.parse` of the text could misread
 * an executor id with an escape (see src/core/parse_json.ts).
 */
export function plain(value: unknown): unknown {
  return jsonValue(value) ?? null;
}

function jsonValue(value: unknown): unknown {
  if (typeof (value as { toJSON?: unknown } | null)?.toJSON === "function") {
    value = (value as { toJSON(): unknown }).toJSON();
  }
  if (typeof value === "number") return Number.isFinite(value) ? value + 0 : null; // -0 + 0 is 0
  if (typeof value === "string" || typeof value === "boolean" || value === null) return value;
  if (typeof value !== "object") return undefined; // undefined, functions, symbols
  if (Array.isArray(value)) return value.map((item) => jsonValue(item) ?? null);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const json = jsonValue(item);
    if (json !== undefined) {
      Object.defineProperty(out, key, {
        value: json,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return out;
}

function writeAll(sink: Sink, text: string): void {
  let bytes = encoder.encode(text);
  while (bytes.length > 0) bytes = bytes.subarray(sink.writeSync(bytes));
}
