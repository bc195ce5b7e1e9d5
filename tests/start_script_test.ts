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

Deno.test("bin/shard-manager --data-dir DIR writes the embedded store to any folder the user can write", async () => {
  // `deno task start` is this script; a folder outside the checkout and its .data, both spellings.
  const deno = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  assert.equal(deno.tasks.start, "bin/shard-manager");
  const dir = await Deno.makeTempDir({ prefix: "sm-data-dir-" });
  try {
    for (const args of [["--data-dir", `${dir}/a`], [`--data-dir=${dir}/b`]]) {
      const child = new Deno.Command(SCRIPT, {
        args: [...args, "--grpc-address", "127.0.0.1:0", "--http-address", "127.0.0.1:0"],
        cwd: dir,
        env: { DENO: denoBinary() },
        stdout: "null",
        stderr: "piped",
      }).spawn();
      let text = "";
      const reading = (async () => {
        for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) text += chunk;
      })();
      for (let i = 0; i < 300 && !/"msg":"listening"|Requires|Cannot/.test(text); i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      Deno.kill(child.pid, "SIGTERM");
      const status = await child.status;
      await reading;
      assert.match(text, /"msg":"listening"/, `${args.join(" ")} started; logs:\n${text}`);
      assert.equal(status.code, 0, `stopped cleanly; logs:\n${text}`);
      const store = args.length === 2 ? `${dir}/a` : `${dir}/b`;
      assert.ok((await Deno.stat(`${store}/journal.jsonl`)).isFile, `the store is in ${store}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bin/shard-manager refuses a --data-dir whose name holds a comma, saying why (exit 2)", async () => {
  const out = await new Deno.Command(SCRIPT, {
    args: ["--data-dir", "/tmp/a,b"],
    env: { DENO: denoBinary() },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 2);
  assert.match(new TextDecoder().decode(out.stderr), /--data-dir "\/tmp\/a,b": .*comma/);
});
