/**
 * The page's browser code, served as it is in `packages/dashboard_browser/`:
 * ES modules in plain JavaScript with `// @ts-check` and JSDoc types. That
 * folder is a workspace member checked with the DOM library (its
 * `deno.json`), so `deno check` and `deno lint` see the files, and DOM types
 * never leak into the server's program. The files are read on the first
 * request for one (`deno task compile:service` includes the folder); the
 * page loads `browser/app.js` as a module script (`script-src 'self'`), and
 * it imports the rest.
 *
 * @module
 */

/** The module the page loads; it imports the others. */
export const ENTRY_SCRIPT = "app.js";

/** Every module of the folder the page may load (`scripts_test.ts` keeps this list whole). */
export const BROWSER_FILES: readonly string[] = [
  "actions.js",
  "app.js",
  "banner.js",
  "brake.js",
  "colour.js",
  "dom.js",
  "format.js",
  "key_line.js",
  "legend.js",
  "shard_map.js",
  "sparkline.js",
  "summary.js",
  "tables.js",
  "timeline.js",
  "trends.js",
  "ui.js",
];

/** The folder the modules are read from. */
export const BROWSER_DIR: URL = new URL("../../../../packages/dashboard_browser/", import.meta.url);

/**
 * Reads every file of {@linkcode BROWSER_FILES} from `dir`: file name to
 * source. Rejects, naming the file, when one cannot be read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readBrowserScripts } from "./scripts.ts";
 *
 * const scripts = await readBrowserScripts();
 * assert.match(scripts.get("app.js") ?? "", /^\/\/ @ts-check/);
 * ```
 */
export async function readBrowserScripts(
  dir: URL = BROWSER_DIR,
): Promise<ReadonlyMap<string, string>> {
  const entries = await Promise.all(BROWSER_FILES.map(async (file) => {
    const url = new URL(file, dir);
    try {
      return [file, await Deno.readTextFile(url)] as const;
    } catch (error) {
      throw new Error(
        `Cannot read the dashboard's browser code ${url.pathname}: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }));
  return new Map(entries);
}

/**
 * The response for browser module `file` (`app.js`) among `scripts`, or
 * undefined when there is none of that name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scriptResponse } from "./scripts.ts";
 *
 * const scripts = new Map([["app.js", "export {};"]]);
 * const res = scriptResponse(scripts, "app.js");
 * assert.equal(res?.headers.get("content-type"), "text/javascript; charset=utf-8");
 * assert.equal(scriptResponse(scripts, "nope.js"), undefined);
 * ```
 */
export function scriptResponse(
  scripts: ReadonlyMap<string, string>,
  file: string,
): Response | undefined {
  const source = scripts.get(file);
  if (source === undefined) return undefined;
  return new Response(source, {
    headers: {
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
