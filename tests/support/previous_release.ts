/**
 * The previous release, checked out for a test: the commit CHANGELOG.md names
 * in its latest release heading (`## 0.1.0 (commit abc1234)`), added as a git
 * worktree in a temporary directory (removed again, worktree entry and all),
 * with its dependencies installed from the shared Deno cache (offline), or
 * from the registry when the cache lacks one. A commit missing from a
 * shallow clone is fetched from `origin`; if that fails too the test fails,
 * saying so: it is never skipped.
 *
 * @module
 */

const ROOT = new URL("../../", import.meta.url).pathname;

/** A release checked out beside this repository. */
export interface PreviousRelease extends AsyncDisposable {
  /** Its version, as the CHANGELOG heading names it, e.g. `0.1.0`. */
  readonly version: string;
  /** The commit (as written in CHANGELOG.md). */
  readonly commit: string;
  /** Its `src/main.ts`, for `startProcess(..., { main })`. */
  readonly main: string;
}

/** The newest release heading that names a commit: its version and commit. */
export async function previousReleaseCommit(): Promise<{ version: string; commit: string }> {
  const changelog = await Deno.readTextFile(`${ROOT}CHANGELOG.md`);
  const match = changelog.match(/^## (\d+\.\d+\.\d+) \(commit ([0-9a-f]{7,40})\)$/m);
  if (!match) {
    throw new Error(
      "CHANGELOG.md names no released commit: a release heading must read " +
        "'## X.Y.Z (commit <hash>)'",
    );
  }
  return { version: match[1]!, commit: match[2]! };
}

async function git(args: readonly string[]): Promise<{ ok: boolean; text: string }> {
  const out = await new Deno.Command("git", { args: ["-C", ROOT, ...args], stdin: "null" })
    .output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { ok: out.success, text: text.trim() };
}

/** Checks out the previous release into a temporary git worktree (see the module doc). */
export async function checkoutPreviousRelease(): Promise<PreviousRelease> {
  const { version, commit } = await previousReleaseCommit();
  if (!(await git(["cat-file", "-e", `${commit}^{commit}`])).ok) {
    const fetched = await git(["fetch", "--quiet", "origin", commit]);
    if (!fetched.ok || !(await git(["cat-file", "-e", `${commit}^{commit}`])).ok) {
      throw new Error(
        `Release ${version}'s commit ${commit} (named in CHANGELOG.md) is not in this clone ` +
          `and 'git fetch origin ${commit}' failed (${fetched.text || "no such commit"}); ` +
          "the upgrade test needs it: clone with full history (git fetch --unshallow)",
      );
    }
  }
  const parent = await Deno.makeTempDir({ prefix: `sm-release-${version}-` });
  const dir = `${parent}/release`;
  const remove = async () => {
    await git(["worktree", "remove", "--force", dir]);
    await Deno.remove(parent, { recursive: true }).catch(() => {});
    await git(["worktree", "prune"]);
  };
  const added = await git(["worktree", "add", "--detach", dir, commit]);
  if (!added.ok) {
    await remove();
    throw new Error(`git worktree add of release ${version} (${commit}) failed: ${added.text}`);
  }
  // Its own lock file, resolved from the cache this repository's tests share (offline); when a
  // package it pins is not there (a machine that never installed it), from the registry.
  const install = async (cachedOnly: boolean) =>
    await new Deno.Command(Deno.execPath(), {
      args: [
        "install",
        "--frozen",
        ...(cachedOnly ? ["--cached-only"] : []),
        "--entrypoint",
        "src/main.ts",
      ],
      cwd: dir,
      stdin: "null",
    }).output();
  const offline = await install(true);
  const installed = offline.success ? offline : await install(false);
  if (!installed.success) {
    await remove();
    throw new Error(
      `Release ${version}'s dependencies could not be installed (deno install --frozen in its ` +
        `worktree failed, from the cache and from the registry):\n${
          new TextDecoder().decode(offline.stderr)
        }\n${new TextDecoder().decode(installed.stderr)}`,
    );
  }
  return { version, commit, main: `${dir}/src/main.ts`, [Symbol.asyncDispose]: remove };
}
