/**
 * smctl's conventions (issue 16), against a real service on a real etcd: `-o` formats with
 * `--json` as an alias, every global flag from `SMCTL_*`, `--endpoints` failover, `-l` selectors
 * on list commands, and `completion`.
 */
import assert from "node:assert/strict";
import { parse as parseYaml } from "yaml";
import { freePort } from "./support/ports.ts";
import { json, smctl, spawnSmctl } from "./support/smctl.ts";
import { startSmctlFixture } from "./support/smctl_fixture.ts";

interface ExecutorList {
  namespace: string;
  executors: { id: string; metadata: Record<string, string> }[];
}

Deno.test("smctl conventions on a live service", async (t) => {
  await using fx = await startSmctlFixture("smctl-conventions");

  await t.step("-o json, --json, -o yaml and SMCTL_OUTPUT print the same document", async () => {
    const viaO = await fx.run(["-n", "ns", "executor", "list", "-o", "json"]);
    assert.equal(viaO.code, 0, viaO.stderr);
    const doc = json<ExecutorList>(viaO);
    assert.deepEqual(doc.executors.map((e) => e.id).sort(), ["a", "b", "c"]);
    const alias = json<ExecutorList>(await fx.run(["-n", "ns", "executor", "list", "--json"]));
    assert.deepEqual(alias.executors.map((e) => e.id), doc.executors.map((e) => e.id));
    const yaml = await fx.run(["-n", "ns", "executor", "list", "-o", "yaml"]);
    assert.equal(yaml.code, 0, yaml.stderr);
    const fromYaml = parseYaml(yaml.stdout) as ExecutorList;
    assert.deepEqual(fromYaml.executors.map((e) => e.id), doc.executors.map((e) => e.id));
    const env = await fx.run(["-n", "ns", "executor", "list"], { env: { SMCTL_OUTPUT: "yaml" } });
    assert.equal((parseYaml(env.stdout) as ExecutorList).namespace, "ns");
    const cliWins = await fx.run(["-n", "ns", "namespace", "list", "-o", "table"], {
      env: { SMCTL_OUTPUT: "yaml" },
    });
    assert.match(cliWins.stdout, /^NAMESPACE\s+TYPE/);
    const bad = await fx.run(["namespace", "list", "-o", "xml"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /xml/);
  });

  await t.step("every read command prints the same document in -o json and -o yaml", async () => {
    const reads = [
      ["namespace", "list"],
      ["-n", "ns", "namespace", "describe"],
      ["-n", "ns", "namespace", "blast-radius"],
      ["-n", "ns", "executor", "list"],
      ["-n", "ns", "executor", "describe", "a"],
      ["-n", "ns", "executor", "drains"],
      ["-n", "ns", "shard", "owner", "1"],
      ["-n", "ns", "shard", "inspect", "1"],
      ["-n", "ns", "shard", "drained"],
      ["leader", "list"],
    ];
    // Fields that move between two calls (heartbeat ages, the time of the call) are dropped.
    const steady = (value: unknown): unknown =>
      JSON.parse(JSON.stringify(value, (key, v) => /age|time|heartbeat|load/i.test(key) ? 0 : v));
    for (const args of reads) {
      const asJson = await fx.run([...args, "-o", "json"]);
      assert.equal(asJson.code, 0, `${args.join(" ")}: ${asJson.stderr}`);
      const asYaml = await fx.run([...args, "-o", "yaml"]);
      assert.equal(asYaml.code, 0, `${args.join(" ")}: ${asYaml.stderr}`);
      assert.deepEqual(steady(parseYaml(asYaml.stdout)), steady(json(asJson)), args.join(" "));
    }
  });

  await t.step("-o wide adds columns to the table", async () => {
    const table = await fx.run(["-n", "ns", "executor", "list"]);
    const wide = await fx.run(["-n", "ns", "executor", "list", "-o", "wide"]);
    assert.equal(wide.code, 0, wide.stderr);
    assert.doesNotMatch(table.stdout, /METADATA/);
    assert.match(wide.stdout.split("\n")[0]!, /METADATA$/);
    assert.match(wide.stdout, /hostname=worker-a/);
    const namespaces = await fx.run(["namespace", "list", "-o", "wide"]);
    assert.match(namespaces.stdout, /LEADER/);
    assert.match(namespaces.stdout, /instance-1/);
  });

  await t.step("-l/--selector filters list commands", async () => {
    const one = json<ExecutorList>(
      await fx.run(["-n", "ns", "executor", "list", "-l", "hostname=worker-b", "--json"]),
    );
    assert.deepEqual(one.executors.map((e) => e.id), ["b"]);
    const none = await fx.run(["-n", "ns", "executor", "list", "--selector", "hostname=nope"]);
    assert.equal(none.code, 0);
    assert.match(none.stdout, /No executors/);
    const both = json<ExecutorList>(
      await fx.run(["-n", "ns", "executor", "list", "-l", "hostname=worker-a,id=a", "--json"]),
    );
    assert.deepEqual(both.executors.map((e) => e.id), ["a"]);
    const ns = json<{ namespaces: { name: string }[] }>(
      await fx.run(["namespace", "list", "-l", "type=ephemeral", "--json"]),
    );
    assert.deepEqual(ns.namespaces.map((n) => n.name), ["eph"]);
    const leaders = json<{ leaders: { namespace: string }[] }>(
      await fx.run(["leader", "list", "-l", "namespace=ns", "--json"]),
    );
    assert.deepEqual(leaders.leaders.map((l) => l.namespace), ["ns"]);
    const badPair = await fx.run(["-n", "ns", "executor", "list", "-l", "nokey"]);
    assert.equal(badPair.code, 2);
  });

  await t.step("every global flag can come from SMCTL_*", async () => {
    const env = {
      SMCTL_ADDRESS: fx.address,
      SMCTL_NAMESPACE: "ns",
      SMCTL_JSON: "1",
      SMCTL_TIMEOUT: "5s",
    };
    const listed = await smctl(["executor", "list"], { env });
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(json<ExecutorList>(listed).namespace, "ns");
    const off = await smctl(["executor", "list"], { env: { ...env, SMCTL_JSON: "0" } });
    assert.match(off.stdout, /^EXECUTOR\s+STATUS/, "SMCTL_JSON=0 leaves tables on");
    const badTimeout = await smctl(["executor", "list"], {
      env: { ...env, SMCTL_TIMEOUT: "soon" },
    });
    assert.equal(badTimeout.code, 2, "SMCTL_TIMEOUT is parsed like --timeout");
    const endpoints = await smctl(["namespace", "list", "--json"], {
      env: { SMCTL_ENDPOINTS: `127.0.0.1:${freePort()},${fx.address}` },
    });
    assert.equal(endpoints.code, 0, endpoints.stderr);
    const tls = await smctl(["namespace", "list"], {
      env: { SMCTL_ADDRESS: fx.address, SMCTL_TLS: "1", SMCTL_TIMEOUT: "2s" },
    });
    assert.notEqual(tls.code, 0, "SMCTL_TLS=1 turns TLS on: a plaintext server refuses it");
    const help = await smctl(["--help"]);
    for (
      const name of [
        "SMCTL_ADDRESS",
        "SMCTL_ENDPOINTS",
        "SMCTL_NAMESPACE",
        "SMCTL_OUTPUT",
        "SMCTL_JSON",
        "SMCTL_TIMEOUT",
        "SMCTL_TLS",
        "SMCTL_CA_FILE",
        "SMCTL_CERT_FILE",
        "SMCTL_KEY_FILE",
        "SMCTL_SERVER_NAME",
        "SMCTL_TOKEN",
      ]
    ) assert.ok(help.stdout.includes(name), `--help names ${name}`);
  });

  await t.step("--endpoints fails over past instances that cannot be reached", async () => {
    const dead = [`127.0.0.1:${freePort()}`, `127.0.0.1:${freePort()}`];
    const ok = await smctl([
      "--endpoints",
      [...dead, fx.address].join(","),
      "-n",
      "ns",
      "executor",
      "list",
      "--json",
    ]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(json<ExecutorList>(ok).executors.length, 3);
    const none = await smctl(["--endpoints", dead.join(","), "namespace", "list"]);
    assert.equal(none.code, 4, none.stderr);
    assert.match(none.stderr, new RegExp(`cannot reach the service at ${dead.join(", ")}`));
    const both = await smctl(["--endpoints", fx.address, "--address", fx.address, "ns", "list"]);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--address or --endpoints, not both/);
    const badPort = await smctl(["--endpoints", `${fx.address},127.0.0.1:70000`, "ns", "list"]);
    assert.equal(badPort.code, 2);
    assert.match(badPort.stderr, /--endpoints "127\.0\.0\.1:70000": port 70000 is out of range/);
  });

  await t.step(
    "namespace watch moves on to the next endpoint; -o yaml prints documents",
    async () => {
      const watch = spawnSmctl([
        "--endpoints",
        `127.0.0.1:${freePort()},${fx.address}`,
        "-n",
        "ns",
        "namespace",
        "watch",
        "-o",
        "yaml",
      ]);
      try {
        await watch.waitFor(({ stdout }) => /namespace: ns\n/.test(stdout), 15_000, "a picture");
      } finally {
        watch.kill("SIGINT");
      }
      const { stdout } = await watch.finished;
      const first = stdout.split(/^---\n/m).filter((d) => d.trim() !== "")[0]!;
      assert.equal((parseYaml(first) as { namespace: string }).namespace, "ns");
      assert.match(stdout, /^---\n/);
    },
  );

  await t.step("completion prints a script for bash, zsh and fish", async () => {
    for (const shell of ["bash", "zsh", "fish"]) {
      const out = await smctl(["completion", shell]);
      assert.equal(out.code, 0, out.stderr);
      assert.match(out.stdout, /smctl/);
    }
    const bash = await smctl(["completion", "bash"]);
    const check = await new Deno.Command("bash", { args: ["-n", "-c", bash.stdout] }).output();
    assert.equal(check.code, 0, "the bash script parses");
    const unknown = await smctl(["completion", "tcsh"]);
    assert.equal(unknown.code, 2);
  });
});
