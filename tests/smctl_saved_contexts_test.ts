/**
 * Issue 37: smctl's conventions against a real service: shard list --owner,
 * -o jsonpath, --no-headers, --watch, saved contexts and use-context, the
 * failover warning, --endpoints "" and completion of names.
 */
import assert from "node:assert/strict";
import { freePort } from "./support/ports.ts";
import { startSmctlFixture } from "./support/smctl_fixture.ts";
import { json, smctl, smctlCommand } from "./support/smctl.ts";

Deno.test("smctl conventions: shard list, jsonpath, no-headers, watch, contexts, failover, completion", async (t) => {
  await using fx = await startSmctlFixture("smctl-saved-contexts");
  const dir = await Deno.makeTempDir();
  const dead = `127.0.0.1:${freePort()}`;
  try {
    await t.step(
      "shard list --owner lists one executor's shards; an unknown owner exits 3",
      async () => {
        const all = json<{ shards: { key: string; owner: string }[] }>(
          await fx.run(["-n", "ns", "shard", "list", "--json"]),
        ).shards;
        assert.equal(all.length, 12);
        const mine = await fx.run(["-n", "ns", "shard", "list", "--owner", "a", "--json"]);
        const shards =
          json<{ owner: string; shards: { key: string; owner: string }[] }>(mine).shards;
        assert.ok(shards.length > 0 && shards.every((s) => s.owner === "a"));
        assert.deepEqual(
          shards.map((s) => s.key),
          all.filter((s) => s.owner === "a").map((s) => s.key),
        );
        const none = await fx.run(["-n", "ns", "shard", "list", "--owner", "ghost"]);
        assert.equal(none.code, 3, none.stderr);
        assert.match(none.stderr, /executor "ghost" is not registered in namespace "ns"/);
      },
    );

    await t.step("-o jsonpath and --no-headers", async () => {
      const ids = await fx.run([
        "-n",
        "ns",
        "executor",
        "list",
        "-o",
        "jsonpath={.executors[*].id}",
      ]);
      assert.equal(ids.code, 0, ids.stderr);
      assert.equal(ids.stdout, "a b c\n");
      const ranged = await fx.run([
        "-n",
        "ns",
        "executor",
        "list",
        "-o",
        'jsonpath={range .executors[*]}{.id}={.shardCount}{"\\n"}{end}',
      ]);
      assert.match(ranged.stdout, /^a=\d+\nb=\d+\nc=\d+\n$/);
      const bad = await fx.run([
        "-n",
        "ns",
        "executor",
        "list",
        "-o",
        "jsonpath={.executors[?(@.id)]}",
      ]);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /filters \(\[\?\(\.\.\.\)\]\) are not supported/);
      const table = await fx.run(["-n", "ns", "executor", "list", "--no-headers"]);
      assert.equal(table.code, 0, table.stderr);
      assert.deepEqual(table.stdout.trimEnd().split("\n").map((l) => l.split(/\s+/)[0]), [
        "a",
        "b",
        "c",
      ]);
    });

    await t.step("--watch re-prints the list when it changes", async () => {
      const watch = fx.spawn([
        "-n",
        "ns",
        "executor",
        "list",
        "--watch",
        "-o",
        "jsonpath={.executors[*].id}",
      ]);
      try {
        await watch.waitFor(({ stdout }) => stdout.includes("a b c\n"), 15_000, "the first list");
        fx.addExecutors(["d"]);
        await watch.waitFor(
          ({ stdout }) => stdout.includes("a b c d\n"),
          15_000,
          "the list with d",
        );
      } finally {
        watch.kill("SIGINT");
      }
      assert.equal((await watch.finished).code, 0);
    });

    await t.step("a failover to the next endpoint warns on stderr", async () => {
      const result = await smctl(["--endpoints", `${dead},${fx.address}`, "namespace", "list"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(
        result.stderr,
        new RegExp(
          `^smctl: warning: ${dead} cannot be reached \\(connection refused\\); trying ${fx.address}$`,
          "m",
        ),
      );
    });

    await t.step('--endpoints "" ignores SMCTL_ENDPOINTS', async () => {
      const env = { SMCTL_ENDPOINTS: dead };
      const refused = await smctl(["--timeout", "2s", "namespace", "list"], { env });
      assert.equal(refused.code, 4, refused.stderr);
      const result = await smctl(
        ["--endpoints", "", "--address", fx.address, "namespace", "list"],
        { env },
      );
      assert.equal(result.code, 0, result.stderr);
    });

    const config = `${dir}/config.yaml`;
    await Deno.writeTextFile(
      config,
      [
        "contexts:",
        "  - name: test",
        `    endpoints: [${dead}, ${fx.address}]`,
        "    namespace: ns",
        "  - name: broken",
        `    address: ${dead}`,
        "",
      ].join("\n"),
    );
    const env = { SMCTL_CONFIG: config };

    await t.step(
      "saved contexts: --context, use-context, current-context, get-contexts",
      async () => {
        const none = await smctl(["config", "current-context"], { env });
        assert.equal(none.code, 3, none.stderr);
        const viaFlag = await smctl(["--context", "test", "executor", "list", "--json"], { env });
        assert.equal(viaFlag.code, 0, viaFlag.stderr);
        assert.equal(
          json<{ namespace: string }>(viaFlag).namespace,
          "ns",
          "the context's namespace",
        );
        const unknown = await smctl(["--context", "nope", "namespace", "list"], { env });
        assert.equal(unknown.code, 2);
        assert.match(unknown.stderr, /no context "nope" in smctl's config; known: test, broken/);

        const used = await smctl(["config", "use-context", "test"], { env });
        assert.equal(used.code, 0, used.stderr);
        assert.equal((await smctl(["config", "current-context"], { env })).stdout, "test\n");
        const listed = await smctl(["config", "get-contexts"], { env });
        assert.match(listed.stdout, /^\*\s+test\s/m);
        const current = await smctl(["executor", "list", "-o", "jsonpath={.namespace}"], { env });
        assert.equal(current.stdout, "ns\n", current.stderr);
        // Flags and the environment beat the context.
        const flag = await smctl([
          "--address",
          fx.address,
          "-n",
          "eph",
          "executor",
          "list",
          "--json",
        ], { env });
        assert.equal(json<{ namespace: string }>(flag).namespace, "eph");
        const envBeats = await smctl(["--timeout", "2s", "namespace", "list"], {
          env: { ...env, SMCTL_ADDRESS: dead },
        });
        assert.equal(envBeats.code, 4, "SMCTL_ADDRESS beats the context's endpoints");
      },
    );

    await t.step("completion offers namespace and executor names from the service", async () => {
      const bin = `${dir}/bin`;
      await Deno.mkdir(bin);
      const quoted = smctlCommand([]).map((a) => `'${a}'`).join(" ");
      await Deno.writeTextFile(`${bin}/smctl`, `#!/bin/sh\nexec ${quoted} "$@"\n`, { mode: 0o755 });
      const script = (await smctl(["completion", "bash"])).stdout;
      // Warm deno's cache for the wrapper, so the first lookup is not cut by the 2 s bound.
      await new Deno.Command(`${bin}/smctl`, { args: ["--version"], stdout: "null" }).output();
      const complete = async (words: string[]) => {
        const out = await new Deno.Command("bash", {
          args: [
            "-c",
            `${script}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${
              words.length - 1
            }; _smctl; printf '%s\\n' "\${COMPREPLY[@]}"`,
          ],
          // HOME stays: deno keeps its cache under it.
          env: { PATH: `${bin}:${Deno.env.get("PATH")}`, SMCTL_CONFIG: `${dir}/none.yaml` },
          stdout: "piped",
          stderr: "piped",
        }).output();
        return new TextDecoder().decode(out.stdout).split("\n").filter((l) => l !== "");
      };
      assert.deepEqual(await complete(["smctl", "--address", fx.address, "-n", ""]), ["ns", "eph"]);
      assert.deepEqual(
        await complete(["smctl", "--address", fx.address, "-n", "ns", "executor", "drain", ""]),
        ["a", "b", "c", "d"],
      );
      assert.deepEqual(
        await complete(["smctl", "--address", dead, "-n", ""]),
        [],
        "quiet when unreachable",
      );
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
