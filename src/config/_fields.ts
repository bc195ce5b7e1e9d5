/**
 * Field schemas shared by the config sections. Private to the config package.
 *
 * @module
 */
import { z } from "zod";
import { describeValue } from "./_issue_message.ts";
import { formatDuration, parseDuration } from "../shared/duration.ts";

/** Longest duration a timer can wait: setTimeout fires at once beyond 2^31 - 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A strict mapping: unknown keys are issues whose message lists the known keys.
 *
 * @example Usage
 * ```ts
 * import { section } from "./_fields.ts";
 * import { z } from "zod";
 * import assert from "node:assert/strict";
 *
 * const result = section({ level: z.string() }).safeParse({ level: "info", lvl: 1 });
 * assert.equal(result.error?.issues[0]?.message, "expected one of: level");
 * ```
 */
export function section<Shape extends z.ZodRawShape>(
  shape: Shape,
): z.ZodObject<Shape, z.core.$strict> {
  const known = Object.keys(shape).join(", ");
  return z.strictObject(shape, {
    error: (issue) => issue.code === "unrecognized_keys" ? `expected one of: ${known}` : undefined,
  });
}

/** Bounds of a {@linkcode duration} field. */
export interface DurationBounds {
  /** Smallest accepted value in ms. @default {0} */
  minMs?: number;
  /** Whether `minMs` itself is rejected. @default {false} */
  exclusive?: boolean;
  /** Whether the value must be a whole number of seconds. @default {false} */
  wholeSeconds?: boolean;
}

/**
 * A duration written as text (`"250ms"`), parsed to milliseconds, with a default
 * written the same way. A bare `0` is accepted too.
 *
 * @example Usage
 * ```ts
 * import { duration } from "./_fields.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(duration("1s").parse(undefined), 1000);
 * assert.equal(duration("1s").parse("1m"), 60000);
 * assert.equal(duration("1s", { minMs: 0, exclusive: true }).safeParse("0s").success, false);
 * ```
 */
export function duration(
  defaultText: string,
  bounds: DurationBounds = {},
): z.ZodPrefault<z.ZodPipe<z.ZodUnknown, z.ZodTransform<number, unknown>>> {
  const { minMs = 0, exclusive = false, wholeSeconds = false } = bounds;
  return z.unknown().transform((input, ctx): number => {
    const fail = (message: string) => {
      ctx.addIssue({ code: "custom", message, input });
      return z.NEVER;
    };
    if (typeof input !== "string" && input !== 0) {
      return fail(`expected a duration such as "1s" or "250ms", got ${describeValue(input)}`);
    }
    let ms: number;
    try {
      ms = parseDuration(String(input));
    } catch (error) {
      return fail(error instanceof Error ? error.message : String(error));
    }
    if (exclusive ? ms <= minMs : ms < minMs) {
      const bound = `${exclusive ? "greater than" : "at least"} ${formatDuration(minMs)}`;
      return fail(`must be ${bound}, got ${JSON.stringify(input)}`);
    }
    if (ms > MAX_TIMER_MS) {
      return fail(`must be at most ${formatDuration(MAX_TIMER_MS)}, got ${JSON.stringify(input)}`);
    }
    if (wholeSeconds && ms % 1000 !== 0) {
      return fail(`must be a whole number of seconds, got ${JSON.stringify(input)}`);
    }
    return ms;
  }).prefault(defaultText);
}

/**
 * An integer in `[min, max]`, with one message for every way to miss it.
 *
 * @example Usage
 * ```ts
 * import { integer } from "./_fields.ts";
 * import assert from "node:assert/strict";
 *
 * const result = integer(1, 10).safeParse("abc");
 * assert.equal(result.error?.issues[0]?.message, 'expected an integer from 1 to 10, got "abc"');
 * ```
 */
export function integer(min: number, max?: number): z.ZodNumber {
  const range = max === undefined ? `≥ ${min}` : `from ${min} to ${max}`;
  const error = (issue: { input?: unknown }) =>
    issue.input === undefined
      ? `required; expected an integer ${range}`
      : `expected an integer ${range}, got ${describeValue(issue.input)}`;
  const schema = z.number({ error }).int({ error }).min(min, { error });
  return max === undefined ? schema : schema.max(max, { error });
}

const HOST = String.raw`(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?` +
  String.raw`(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*)`;
const HOST_PORT = new RegExp(String.raw`^${HOST}:(\d{1,5})$`);
const ENDPOINT = new RegExp(String.raw`^(?:https?://)?${HOST}:(\d{1,5})$`);

function address(pattern: RegExp, shape: string, minPort = 1): z.ZodString {
  return z.string().refine((text) => {
    const match = pattern.exec(text);
    const port = Number(match?.[1]);
    return match !== null && port >= minPort && port <= 65_535;
  }, {
    error: (issue) =>
      `expected ${shape} with a port from ${minPort} to 65535, got ${describeValue(issue.input)}`,
  });
}

/**
 * A network address to listen on: `host:port`, the host a name, IPv4 or `[IPv6]`;
 * port 0 asks the system for a free port.
 *
 * @example Usage
 * ```ts
 * import { hostPort } from "./_fields.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(hostPort().safeParse("127.0.0.1:7943").success, true);
 * assert.equal(hostPort().safeParse("127.0.0.1").success, false);
 * assert.equal(hostPort().safeParse("127.0.0.1:0").success, true);
 * ```
 */
export function hostPort(): z.ZodString {
  return address(HOST_PORT, '"host:port"', 0);
}

/**
 * An etcd endpoint: `host:port` or `http(s)://host:port`.
 *
 * @example Usage
 * ```ts
 * import { endpoint } from "./_fields.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(endpoint().safeParse("http://etcd-0:2379").success, true);
 * assert.equal(endpoint().safeParse("etcd-0").success, false);
 * ```
 */
export function endpoint(): z.ZodString {
  return address(ENDPOINT, '"host:port" or "http(s)://host:port"');
}
