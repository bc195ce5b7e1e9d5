/**
 * Rebuilds the images of upstream's wire contract in `proto/upstream/`, which
 * `deno task proto:check` compares `proto/` against with `buf breaking`.
 *
 * Each image is built with `buf build --exclude-source-info` from upstream's
 * two `.proto` files at a pinned commit, read out of a local clone with
 * `git show`: it holds names, numbers and types, and no upstream comments or
 * other text. Nothing else of upstream's is copied.
 *
 * @example Rebuild both images from fresh clones
 * ```sh
 * git clone https://github.com/cadence-workflow/shard-manager /tmp/shard-manager
 * git clone https://github.com/cadence-workflow/cadence /tmp/cadence
 * deno run --allow-all scripts/update_upstream_protos.ts \
 *   --shard-manager /tmp/shard-manager --cadence /tmp/cadence
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { REPO_ROOT } from "./gen_proto.ts";

/** One upstream source of the wire contract and the image built from it. */
export interface UpstreamSource {
  /** The command-line flag naming a local clone of the repository. */
  readonly flag: string;
  /** The repository, as on GitHub. */
  readonly repository: string;
  /** The commit the image is built from. */
  readonly commit: string;
  /** Folder of the repository that is the root of the `.proto` import paths. */
  readonly root: string;
  /** Where the image goes, relative to the repository root of this project. */
  readonly image: string;
}

/** The files compared, relative to each source's `root` (and to `proto/`). */
export const UPSTREAM_FILES: readonly string[] = [
  "uber/cadence/sharddistributor/v1/executor.proto",
  "uber/cadence/sharddistributor/v1/service.proto",
];

/** The pinned sources; `proto/upstream/README.md` names the same commits. */
export const UPSTREAM_SOURCES: readonly UpstreamSource[] = [
  {
    flag: "shard-manager",
    repository: "cadence-workflow/shard-manager",
    commit: "162ca2ee446572cdedcbc1638299e47dc9f24447",
    root: "proto/internal",
    image: "proto/upstream/shard_manager.binpb",
  },
  {
    // The last contract of the shard distributor inside Cadence itself; it has
    // EphemeralShardLimitExceededError, which the shard-manager repository dropped.
    flag: "cadence",
    repository: "cadence-workflow/cadence",
    commit: "01a1493b430d8726a1aeeb7126cecfd89b36f4a6",
    root: "proto/internal",
    image: "proto/upstream/cadence.binpb",
  },
];

async function run(command: string, args: string[], cwd?: string): Promise<Uint8Array> {
  const { code, stdout, stderr } = await new Deno.Command(command, {
    args,
    stdout: "piped",
    stderr: "piped",
    ...(cwd ? { cwd } : {}),
  }).output();
  if (code !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} exited with code ${code}:\n${new TextDecoder().decode(stderr)}`,
    );
  }
  return stdout;
}

/**
 * Builds `source`'s image from the clone (any git directory holding
 * `source.commit`) at `gitDir`.
 */
export async function buildUpstreamImage(source: UpstreamSource, gitDir: string): Promise<void> {
  const scratch = await Deno.makeTempDir({ prefix: "upstream_proto_" });
  try {
    for (const file of UPSTREAM_FILES) {
      const text = await run("git", [
        "-C",
        gitDir,
        "show",
        `${source.commit}:${source.root}/${file}`,
      ]);
      await Deno.mkdir(`${scratch}/${file.replace(/[^/]*$/, "")}`, { recursive: true });
      await Deno.writeFile(`${scratch}/${file}`, text);
    }
    const image = new URL(source.image, REPO_ROOT).pathname;
    await Deno.mkdir(image.replace(/[^/]*$/, ""), { recursive: true });
    await run(Deno.execPath(), [
      "run",
      "-A",
      "npm:@bufbuild/buf",
      "build",
      scratch,
      "--exclude-source-info",
      "-o",
      image,
    ], new URL(".", REPO_ROOT).pathname);
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: Object.fromEntries(UPSTREAM_SOURCES.map((s) => [s.flag, { type: "string" }])),
  });
  const chosen = UPSTREAM_SOURCES.filter((s) => typeof values[s.flag] === "string");
  if (chosen.length === 0) {
    throw new TypeError(
      `Name at least one clone: ${UPSTREAM_SOURCES.map((s) => `--${s.flag} DIR`).join(", ")}`,
    );
  }
  for (const source of chosen) {
    await buildUpstreamImage(source, String(values[source.flag]));
    // deno-lint-ignore no-console -- a CLI reporting what it did
    console.log(`Wrote ${source.image} from ${source.repository}@${source.commit}`);
  }
}
