/**
 * `deno task compile` builds the service and smctl as single binaries. It
 * needs the `denort` runtime, which `deno compile` downloads unless
 * `DENORT_BIN` points at one; machines without either skip this test.
 */
import assert from "node:assert/strict";

const denort = Deno.env.get("DENORT_BIN");
const ROOT = new URL("..", import.meta.url).pathname;

Deno.test({
  name: denort
    ? "deno task compile builds working service and smctl binaries"
    : "deno task compile (skipped: set DENORT_BIN to a denort runtime to run it offline)",
  ignore: !denort,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "sm-compile-" });
    try {
      const build = await new Deno.Command(Deno.execPath(), {
        args: ["task", "compile"],
        cwd: ROOT,
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(build.code, 0, new TextDecoder().decode(build.stderr));
      for (
        const [binary, args, expected] of [
          ["dist/shard-manager", ["--help"], /Usage: shard-manager/],
          ["dist/smctl", ["--help"], /smctl/],
        ] as const
      ) {
        const run = await new Deno.Command(`${ROOT}${binary}`, { args: [...args], cwd: dir })
          .output();
        const text = new TextDecoder().decode(run.stdout) + new TextDecoder().decode(run.stderr);
        assert.equal(run.code, 0, text);
        assert.match(text, expected);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
