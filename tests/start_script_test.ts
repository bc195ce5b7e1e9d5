/**
 * Issue 37, supervisors: `bin/shard-manager` is the service's own process.
 * A supervisor that starts it and signals the pid it started reaches the
 * service: SIGHUP re-reads the file, SIGTERM stops it cleanly (exit 0).
 */
import assert from "node:assert/strict";
import { denoBinary } from "./support/deno_bin.ts";

const SCRIPT = new URL("../bin/shard-manager", import.meta.url).pathname;

Deno.test("bin/shard-manager execs the service: the supervisor's pid gets its signals", async () => {
  const dir = await Deno.makeTempDir({ prefix: "sm-start-" });
  const config = `${dir}/config.yaml`;
  await Deno.writeTextFile(
    config,
    `shardDistribution:
  embedded: { dataDir: ${JSON.stringify(`${dir}/data/embedded`)} }
  namespaces:
    - { name: jobs, type: fixed, shardNum: 2 }
server: { grpcAddress: "127.0.0.1:0", httpAddress: "127.0.0.1:0" }
log: { level: info }
`,
  );
  const child = new Deno.Command(SCRIPT, {
    args: ["--config", config],
    env: { DENO: denoBinary(), SHARD_MANAGER_DATA: `${dir}/data` },
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  const reading = (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) text += chunk;
  })();
  const until = async (pattern: RegExp, what: string) => {
    for (let i = 0; i < 300 && !pattern.test(text); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.match(text, pattern, `${what}; logs:\n${text}`);
  };
  try {
    await until(/"msg":"listening"/, "it started");
    // The pid the supervisor holds is Deno's own: the shell exec'd it.
    const comm = (await Deno.readTextFile(`/proc/${child.pid}/comm`)).trim();
    assert.equal(comm, "deno", "the started process is the service, not a shell");
    Deno.kill(child.pid, "SIGHUP");
    await until(/SIGHUP|configuration re-read|file namespace/i, "SIGHUP reached the service");
    Deno.kill(child.pid, "SIGTERM");
    const status = await child.status;
    assert.equal(status.code, 0, `stopped cleanly; logs:\n${text}`);
  } finally {
    try {
      child.kill("SIGKILL");
    } catch {
      // already exited
    }
    await child.status;
    await reading;
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bin/shard-manager passes the service's own usage errors through (exit 2)", async () => {
  const out = await new Deno.Command(SCRIPT, {
    args: ["--no-such-flag"],
    env: { DENO: denoBinary() },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 2, new TextDecoder().decode(out.stderr));
});
