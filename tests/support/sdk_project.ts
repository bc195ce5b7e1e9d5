/**
 * Fresh projects that use the SDK package as an application would, for
 * `tests/sdk_deno_project_test.ts` and `tests/sdk_node_project_test.ts`: the
 * scenario of `sdk_project/` copied into a temporary folder with its SDK
 * imports pointed at the package (a path for Deno, the npm name for
 * Node.js), and a real service on a real etcd for it to run against.
 *
 * @module
 */
import { join, relative } from "node:path";
import type { RunningInstance } from "../../src/app.ts";
import { startEtcd, uniquePrefix } from "./etcd.ts";
import { startInProcess, testConfigYaml } from "./service.ts";

const FIXTURE = new URL("./sdk_project/", import.meta.url);
const FILES = {
  "executor_app.mjs": "executor_app.mjs",
  "scenario.mjs": "scenario.test.mjs",
  "failures.mjs": "failures.test.mjs",
};

/** The test files written by {@linkcode writeScenario}, and how many tests they hold. */
export const SCENARIO_TESTS = { files: ["scenario.test.mjs", "failures.test.mjs"], count: 5 };
/** How the fixture imports the SDK, in the repository. */
const SDK_IMPORT = "../../../packages/sdk/";

/** The SDK's entry points, by the file the fixture imports: `executor.ts` → `./executor`. */
export const SDK_ENTRIES: Readonly<Record<string, string>> = {
  "mod.ts": ".",
  "executor.ts": "./executor",
  "spectator.ts": "./spectator",
  "leader.ts": "./leader",
};

/**
 * Writes the scenario into `dir`, each `"../../../packages/sdk/<entry>"`
 * import replaced by `specifier(<entry>)`. Throws if a file has no such
 * import (the rewrite would have tested nothing).
 */
export async function writeScenario(
  dir: string,
  specifier: (entry: string) => string,
): Promise<void> {
  for (const [source, target] of Object.entries(FILES)) {
    const text = await Deno.readTextFile(new URL(source, FIXTURE));
    let replaced = 0;
    const rewritten = text.replace(
      new RegExp(`"${SDK_IMPORT.replaceAll(".", "\\.")}([a-z]+\\.ts)"`, "g"),
      (_whole, entry: string) => {
        replaced++;
        return JSON.stringify(specifier(entry));
      },
    );
    if (replaced === 0) throw new Error(`${source} does not import the SDK from ${SDK_IMPORT}`);
    await Deno.writeTextFile(join(dir, target), rewritten);
  }
}

/** The SDK member's entry `entry` as a relative path from `dir`, as a user would write it. */
export function sdkPathFrom(dir: string, entry: string): string {
  const target = new URL(`../../packages/sdk/${entry}`, import.meta.url).pathname;
  const path = relative(dir, target);
  return path.startsWith(".") ? path : `./${path}`;
}

/** A service and etcd for the scenario, and the environment that points the scenario at them. */
export interface ScenarioService extends AsyncDisposable {
  /** SM_ADDRESS, SM_HTTP_ADDRESS, SM_NAMESPACE and SM_SHARDS. */
  readonly env: Record<string, string>;
  /** The instance. */
  readonly instance: RunningInstance;
}

/** Starts etcd and one service instance with a fixed namespace of 4 shards. */
export async function startScenarioService(): Promise<ScenarioService> {
  const etcd = await startEtcd();
  try {
    const instance = await startInProcess(testConfigYaml({
      endpoints: etcd.endpoints,
      prefix: uniquePrefix("sdk-project"),
      namespaces: [{ name: "orders", type: "fixed", shardNum: 4 }],
    }));
    return {
      instance,
      env: {
        SM_ADDRESS: instance.server.address,
        SM_HTTP_ADDRESS: instance.http.address,
        SM_NAMESPACE: "orders",
        SM_SHARDS: "4",
      },
      [Symbol.asyncDispose]: async () => {
        await instance.stop();
        await etcd[Symbol.asyncDispose]();
      },
    };
  } catch (error) {
    await etcd[Symbol.asyncDispose]();
    throw error;
  }
}

/** Runs `command` in `cwd` with `env` added; returns its exit code and output. */
export async function runIn(
  cwd: string,
  command: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number; output: string }> {
  const { code, stdout, stderr } = await new Deno.Command(command, {
    args: [...args],
    cwd,
    env: { NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { code, output: text.decode(stdout) + text.decode(stderr) };
}
