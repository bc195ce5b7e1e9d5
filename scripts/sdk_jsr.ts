/**
 * `deno task sdk:jsr`: stages the SDK as a JSR package and runs
 * `deno publish --dry-run` on it (`--publish` publishes for real, which
 * needs the network and a JSR account; JSR cannot be reached from this
 * project's CI, so only the dry run is tested).
 *
 * The member `packages/sdk/` cannot be published as it stands: its entry
 * points re-export `src/client/`, outside the member, and JSR refuses
 * imports that leave a package. The staging folder holds the modules the
 * entry points load (`sdk_graph.ts`) in the repository's layout, unchanged
 * (they name npm packages by full `npm:` specifiers, which JSR accepts), a
 * `deno.json` with the member's name, version and exports, and the member's
 * README.md, CHANGELOG.md and LICENSE.
 *
 * @example
 * ```sh
 * deno task sdk:jsr              # dry run
 * deno task sdk:jsr --publish    # publish to jsr.io
 * ```
 *
 * @module
 */
import { dirname, join } from "node:path";
import { REPO_ROOT, SDK_CONFIG, SDK_DIR, sdkModules } from "./sdk_graph.ts";

/** The JSR package's `deno.json`: the member's name and version, its exports at their staged paths. */
export function jsrConfig(
  config: {
    readonly name: string;
    readonly version: string;
    readonly exports: Readonly<Record<string, string>>;
  },
  memberDir: string,
): { name: string; version: string; license: string; exports: Record<string, string> } {
  const exports = Object.fromEntries(
    Object.entries(config.exports).map(([subpath, entry]) => [
      subpath,
      `./${memberDir}/${entry.replace(/^\.\//, "")}`,
    ]),
  );
  return { name: config.name, version: config.version, license: "MIT", exports };
}

/** Writes the JSR package into `stage` (an empty folder). */
export async function stageJsr(stage: string): Promise<void> {
  for (const module of await sdkModules()) {
    const target = join(stage, module.path);
    await Deno.mkdir(dirname(target), { recursive: true });
    await Deno.copyFile(join(REPO_ROOT, module.path), target);
  }
  for (const file of ["README.md", "CHANGELOG.md", "LICENSE"]) {
    await Deno.copyFile(join(REPO_ROOT, SDK_DIR, file), join(stage, file));
  }
  await Deno.writeTextFile(
    join(stage, "deno.json"),
    JSON.stringify(jsrConfig(SDK_CONFIG, SDK_DIR), null, 2) + "\n",
  );
}

/** Stages the package and runs `deno publish` (`--dry-run` unless `publish`); returns its output. */
export async function publishJsr(publish = false): Promise<{ code: number; output: string }> {
  const stage = await Deno.makeTempDir({ prefix: "sm-sdk-jsr-" });
  try {
    await stageJsr(stage);
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["publish", "--allow-dirty", ...(publish ? [] : ["--dry-run"])],
      cwd: stage,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder();
    return { code, output: text.decode(stdout) + text.decode(stderr) };
  } finally {
    await Deno.remove(stage, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const { code, output } = await publishJsr(Deno.args.includes("--publish"));
  // deno-lint-ignore no-console -- a CLI passing on deno publish's report
  console.log(output.trimEnd());
  Deno.exit(code);
}
