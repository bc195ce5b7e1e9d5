/**
 * Reading secrets named by the configuration: tokens and passwords from an
 * environment variable or a file, and the SHA-256 digest tokens are compared by.
 *
 * @module
 */

/** Where to read secrets from; tests pass their own. */
export interface SecretSources {
  /** Reads an environment variable. @default {Deno.env.get} */
  readonly env?: (name: string) => string | undefined;
  /** Reads a text file. @default {Deno.readTextFile} */
  readonly readFile?: (path: string) => Promise<string>;
}

/** Where one secret comes from: inline, an environment variable or a file. */
export interface SecretSource {
  /** The secret itself. */
  readonly value?: string;
  /** Name of an environment variable that holds it. */
  readonly env?: string;
  /** Path of a file that holds it; surrounding whitespace is dropped. */
  readonly file?: string;
}

/**
 * Reads a secret; `what` names it in errors (e.g. `security.auth.tokens[0]`).
 * Throws an `Error` when the variable is unset or empty, or the file cannot
 * be read or is empty.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readSecret } from "./secrets.ts";
 *
 * const secret = await readSecret({ env: "T" }, "a token", { env: () => "s3cret" });
 * assert.equal(secret, "s3cret");
 * ```
 */
export async function readSecret(
  source: SecretSource,
  what: string,
  sources: SecretSources = {},
): Promise<string> {
  if (source.value !== undefined) return source.value;
  if (source.env !== undefined) {
    const value = (sources.env ?? ((name) => Deno.env.get(name)))(source.env);
    if (!value) throw new Error(`${what}: environment variable ${source.env} is not set or empty`);
    return value;
  }
  if (source.file !== undefined) {
    let text: string;
    try {
      text = await (sources.readFile ?? Deno.readTextFile)(source.file);
    } catch (error) {
      throw new Error(`${what}: cannot read ${source.file}: ${(error as Error).message}`);
    }
    const value = text.trim();
    if (value === "") throw new Error(`${what}: file ${source.file} is empty`);
    return value;
  }
  throw new Error(`${what}: no secret given`);
}

/**
 * The lowercase hex SHA-256 of `text` (UTF-8), as `sha256sum` prints it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sha256Hex } from "./secrets.ts";
 *
 * assert.equal(
 *   await sha256Hex(""),
 *   "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
 * );
 * ```
 */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
