/**
 * Test helpers of the config package. Private; imported by tests only.
 *
 * @module
 */

/**
 * Whether the `yaml` package may run: it reads the `LOG_TOKENS` and
 * `LOG_STREAM` environment variables, which needs `--allow-env`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { yamlAllowed } from "./_testing.ts";
 *
 * // `deno test --allow-all` grants the variables; a test then uses it as
 * // Deno.test({ name: "parses YAML", ignore: !yamlAllowed, fn() {} });
 * assert.equal(yamlAllowed, true);
 * ```
 */
export const yamlAllowed: boolean = ["LOG_TOKENS", "LOG_STREAM"].every((variable) =>
  Deno.permissions.querySync({ name: "env", variable }).state === "granted"
);

/**
 * Registers a test that parses YAML; without the environment permission the
 * `yaml` package needs, it is reported as ignored instead of failing.
 *
 * @example Usage
 * ```ts ignore
 * import { yamlTest } from "./_testing.ts";
 *
 * yamlTest("parses YAML", () => {});
 * ```
 *
 * @param name The test name.
 * @param fn The test body.
 */
export function yamlTest(name: string, fn: () => void | Promise<void>): void {
  Deno.test({
    name: yamlAllowed ? name : `${name} (ignored: needs --allow-env=LOG_TOKENS,LOG_STREAM)`,
    ignore: !yamlAllowed,
    fn,
  });
}
