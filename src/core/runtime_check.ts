/**
 * What we know about the Deno releases the service can run on. Deno 2.9.4
 * and later abort the whole process inside `node:http2` (nghttp2's
 * `find_stream_on_goaway_func` assertion) when a client closes its
 * connection while streams are open, which any spectator or executor does
 * when it stops (denoland/deno#36788). The evidence and how to re-check a
 * newer release are in docs/reliability.md ("Runtime").
 *
 * The version the project installs is pinned in `.dvmrc`;
 * {@linkcode VERIFIED_DENO} names the same release (a test keeps them equal).
 *
 * @module
 */

/** The newest Deno release measured not to abort (the one `.dvmrc` pins). */
export const VERIFIED_DENO = "2.9.3";

/** The first Deno release known to abort under ordinary client disconnects. */
export const FIRST_ABORTING_DENO = "2.9.4";

/** Parses `major.minor.patch` (anything after the patch number is ignored). */
function parse(version: string): [number, number, number] | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!match) return undefined;
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/**
 * Compares two `major.minor.patch` versions: negative when `a` is older,
 * 0 when equal, positive when newer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareVersions } from "./runtime_check.ts";
 *
 * assert.ok(compareVersions("2.9.3", "2.10.0") < 0);
 * assert.equal(compareVersions("2.9.3", "2.9.3"), 0);
 * ```
 */
export function compareVersions(a: string, b: string): number {
  const x = parse(a), y = parse(b);
  if (!x || !y) throw new TypeError(`Cannot compare versions ${a} and ${b}`);
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

/**
 * The problem with serving on Deno `version`, or undefined when it is not
 * known to abort. Releases from {@linkcode FIRST_ABORTING_DENO} on are
 * reported until one is measured clean and the pin moves.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runtimeProblem } from "./runtime_check.ts";
 *
 * assert.equal(runtimeProblem("2.9.3"), undefined);
 * assert.match(runtimeProblem("2.9.6") ?? "", /abort/);
 * ```
 */
export function runtimeProblem(version: string): string | undefined {
  if (parse(version) === undefined) return undefined;
  if (compareVersions(version, FIRST_ABORTING_DENO) < 0) return undefined;
  return `Deno ${version} is known to abort the process when a client closes its connection ` +
    `(node:http2, nghttp2's find_stream_on_goaway_func assertion; Deno ${FIRST_ABORTING_DENO} ` +
    `and later, denoland/deno#36788): any spectator or executor that stops can take this ` +
    `instance down. Run the service on Deno ${VERIFIED_DENO}, the version in .dvmrc ` +
    `(npm install -g deno@${VERIFIED_DENO}); docs/reliability.md says how to check a newer ` +
    `release before moving the pin`;
}
