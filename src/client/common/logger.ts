/**
 * Where the SDKs write their log lines: any console-compatible object.
 *
 * @module
 */
import { InvalidOptionsError } from "./errors.ts";

/**
 * A sink for log lines, shaped like `console`: each method takes a message
 * and a context object (`namespace`, `executorId`, `address`, `code`, ...).
 * `console` itself fits, and so do most logging libraries through a thin
 * adapter.
 */
export interface Logger {
  /** Detail for debugging: every start and stop of a shard. */
  debug(message: string, context?: Readonly<Record<string, unknown>>): void;
  /** Something ended well: an outage is over. */
  info(message: string, context?: Readonly<Record<string, unknown>>): void;
  /** Something is wrong and may fix itself: the service is unreachable. */
  warn(message: string, context?: Readonly<Record<string, unknown>>): void;
  /** Something is wrong and will not fix itself: an unknown namespace, a bad token. */
  error(message: string, context?: Readonly<Record<string, unknown>>): void;
}

const ignore = (): void => {};

/**
 * One line for the console: the message, then the context as `key=value`
 * pairs. An error in the context is left out (the SDK's messages already
 * say what failed); a structured logger of your own gets the whole context.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { consoleLine } from "./logger.ts";
 *
 * assert.equal(
 *   consoleLine("Heartbeats failing", { namespace: "orders", attempt: 1, error: new Error("x") }),
 *   "Heartbeats failing (namespace=orders attempt=1)",
 * );
 * ```
 */
export function consoleLine(message: string, context?: Readonly<Record<string, unknown>>): string {
  const pairs = Object.entries(context ?? {})
    .filter(([, value]) => value !== undefined && !(value instanceof Error))
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  return pairs.length === 0 ? message : `${message} (${pairs.join(" ")})`;
}

/**
 * The default logger: one line each ({@linkcode consoleLine}) on standard
 * error (`console.warn` for info and warn lines, `console.error` for errors),
 * so that standard output stays the application's; debug lines dropped. The
 * SDKs log at info only when an outage ends, so a healthy process prints
 * nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultLogger } from "./logger.ts";
 *
 * assert.equal(typeof defaultLogger.warn, "function");
 * ```
 */
export const defaultLogger: Logger = Object.freeze({
  debug: ignore,
  info: (message: string, context?: Readonly<Record<string, unknown>>) => {
    // deno-lint-ignore no-console
    console.warn(consoleLine(message, context)); // standard error, as every line of the SDK
  },
  warn: (message: string, context?: Readonly<Record<string, unknown>>) => {
    // deno-lint-ignore no-console
    console.warn(consoleLine(message, context));
  },
  error: (message: string, context?: Readonly<Record<string, unknown>>) => {
    // deno-lint-ignore no-console
    console.error(consoleLine(message, context));
  },
});

/**
 * A logger that drops everything (what `logger: false` selects).
 *
 * @example
 * ```ts
 * import { silentLogger } from "./logger.ts";
 *
 * silentLogger.error("never shown");
 * ```
 */
export const silentLogger: Logger = Object.freeze({
  debug: ignore,
  info: ignore,
  warn: ignore,
  error: ignore,
});

/**
 * The logger an SDK uses for its `logger` option: the default when
 * undefined, the silent logger for `false`; throws an `InvalidOptionsError` for an
 * object that lacks one of the four methods.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultLogger, resolveLogger, silentLogger } from "./logger.ts";
 *
 * assert.equal(resolveLogger(undefined), defaultLogger);
 * assert.equal(resolveLogger(false), silentLogger);
 * assert.equal(resolveLogger(console), console);
 * assert.throws(() => resolveLogger({ warn() {} } as never), /logger must have/);
 * ```
 */
export function resolveLogger(logger: Logger | false | undefined): Logger {
  if (logger === undefined) return defaultLogger;
  if (logger === false) return silentLogger;
  const missing = (["debug", "info", "warn", "error"] as const).filter((level) =>
    typeof (logger as Partial<Logger> | null)?.[level] !== "function"
  );
  if (missing.length > 0) {
    throw new InvalidOptionsError(
      "logger",
      `logger must have debug, info, warn and error methods (like console), missing ${
        missing.join(", ")
      }`,
    );
  }
  return logger;
}
