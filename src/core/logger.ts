/**
 * Structured logs: one JSON object per line on stderr, with a level and fields.
 *
 * @module
 */

/** Severity of a log event. */
export type LogLevel = "debug" | "info" | "warn" | "error";

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** A logger that carries fields (namespace, executor id, ...) into every event. */
export interface Logger {
  /** Logs at debug level. */
  debug(msg: string, fields?: Record<string, unknown>): void;
  /** Logs at info level. */
  info(msg: string, fields?: Record<string, unknown>): void;
  /** Logs at warn level. */
  warn(msg: string, fields?: Record<string, unknown>): void;
  /** Logs at error level. */
  error(msg: string, fields?: Record<string, unknown>): void;
  /** A logger whose events also carry `fields`. */
  with(fields: Record<string, unknown>): Logger;
}

/**
 * A JSON-lines logger writing events at or above `level` through `write`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonLogger } from "./logger.ts";
 * const lines: string[] = [];
 * jsonLogger("info", {}, (line) => lines.push(line)).info("started", { port: 7943 });
 * assert.equal(JSON.parse(lines[0]!).port, 7943);
 * ```
 */
export function jsonLogger(
  level: LogLevel,
  base: Record<string, unknown> = {},
  write: (line: string) => void = defaultWrite,
): Logger {
  const log = (at: LogLevel) => (msg: string, fields?: Record<string, unknown>) => {
    if (RANK[at] < RANK[level]) return;
    const event: Record<string, unknown> = { ts: new Date().toISOString(), level: at, msg };
    Object.assign(event, base, fields);
    for (const [k, v] of Object.entries(event)) {
      if (v instanceof Error) event[k] = `${v.name}: ${v.message}`;
    }
    write(JSON.stringify(event));
  };
  return {
    debug: log("debug"),
    info: log("info"),
    warn: log("warn"),
    error: log("error"),
    with: (fields) => jsonLogger(level, { ...base, ...fields }, write),
  };
}

const encoder = new TextEncoder();
function defaultWrite(line: string): void {
  Deno.stderr.writeSync(encoder.encode(line + "\n"));
}

/** A logger that drops everything, for tests. */
export const silentLogger: Logger = jsonLogger("error", {}, () => {});
