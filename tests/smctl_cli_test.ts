import assert from "node:assert/strict";
import { freePort } from "./support/ports.ts";
import { smctl } from "./support/smctl.ts";

const ROOT = new URL("..", import.meta.url).pathname;

/** One line on stderr, prefixed, without a stack trace. */
function assertOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trimEnd().split("\n").filter((l) => !l.startsWith("(add --help"));
  assert.equal(lines.length, 1, `one error line, got:\n${stderr}`);
  assert.match(lines[0]!, /^smctl: /);
  assert.match(lines[0]!, pattern);
  assert.doesNotMatch(stderr, /^\s+at /m, "no stack trace");
}

Deno.test("smctl --help documents the global flags, exit codes and examples", async () => {
  const { code, stdout } = await smctl(["--help"]);
  assert.equal(code, 0);
  for (
    const text of [
      "--address <host:port>",
      "SMCTL_ADDRESS",
      "-n, --namespace <name>",
      "SMCTL_NAMESPACE",
      "--json",
      "--timeout <duration>",
      "--tls",
      "--ca-file",
      "--cert-file",
      "--key-file",
      "--server-name",
      "Exit codes:",
      "Examples:",
      "namespace|ns",
      "executor",
      "shard",
      "leader",
    ]
  ) {
    assert.ok(stdout.includes(text), `--help mentions ${text}`);
  }
});

Deno.test("smctl --version prints the project's version", async () => {
  const project = JSON.parse(await Deno.readTextFile(`${ROOT}/deno.json`)) as { version: string };
  const { code, stdout } = await smctl(["--version"]);
  assert.equal(code, 0);
  assert.equal(stdout, `${project.version}\n`);
});

Deno.test("every command's --help documents its flags, the global flags and an example", async () => {
  const commands = [
    ["namespace"],
    ["namespace", "list"],
    ["namespace", "describe"],
    ["namespace", "watch"],
    ["namespace", "force-reset"],
    ["executor"],
    ["executor", "list"],
    ["executor", "describe"],
    ["executor", "drain"],
    ["executor", "undrain"],
    ["executor", "drains"],
    ["shard"],
    ["shard", "owner"],
    ["shard", "inspect"],
    ["shard", "drain"],
    ["shard", "undrain"],
    ["shard", "drained"],
    ["leader"],
    ["leader", "list"],
  ];
  const results = await Promise.all(commands.map((c) => smctl([...c, "--help"])));
  for (const [i, { code, stdout }] of results.entries()) {
    const name = commands[i]!.join(" ");
    assert.equal(code, 0, name);
    assert.match(stdout, new RegExp(`^Usage: smctl ${name}`), name);
    assert.match(stdout, /Examples?:\n {2}\$ smctl /, `${name} has an example`);
    assert.match(stdout, /--address <host:port>/, `${name} shows the global flags`);
  }
  const drain = results[commands.findIndex((c) => c.join(" ") === "executor drain")]!.stdout;
  for (const flag of ["--selector <key=value>", "--reason <text>", "--wait", "--wait-timeout"]) {
    assert.ok(drain.includes(flag), `executor drain --help shows ${flag}`);
  }
  const reset = results[commands.findIndex((c) => c.join(" ") === "namespace force-reset")]!;
  assert.ok(reset.stdout.includes("--yes"));
});

Deno.test("usage errors exit 2 with one line on stderr and nothing on stdout", async () => {
  const cases: [string[], RegExp][] = [
    [["frobnicate"], /unknown command 'frobnicate'/],
    [["namespace", "list", "--bogus"], /unknown option '--bogus'/],
    [["executor", "list"], /executor list needs a namespace: pass --namespace NAME/],
    [
      ["--timeout", "5", "namespace", "list"],
      /--timeout.*expected a duration such as 500ms, 5s or 2m, got "5"/,
    ],
    [
      ["-n", "ns", "executor", "drain", "a", "--selector", "k=v"],
      /give an executor id or --selector, not both/,
    ],
    [["-n", "ns", "executor", "drain"], /give an executor id or at least one --selector/],
    [["-n", "ns", "executor", "drain", "--selector", "novalue"], /--selector.*expected key=value/],
    [["-n", "ns", "executor", "drain", "a", "--wait-timeout", "1m"], /--wait-timeout needs --wait/],
    [["-n", "ns", "executor", "undrain"], /give an executor id or at least one --selector/],
    [["-n", "ns", "shard", "owner"], /missing required argument 'key'/],
    [["-n", "ns", "shard", "owner", "1", "2"], /too many arguments/],
    [
      ["--cert-file", "/nonexistent.pem", "namespace", "list"],
      /certificate and key must be given together/,
    ],
    [
      ["--ca-file", "/nonexistent.pem", "namespace", "list"],
      /cannot read TLS CA file \/nonexistent\.pem/,
    ],
  ];
  const results = await Promise.all(cases.map(([args]) => smctl(args)));
  for (const [i, result] of results.entries()) {
    const [args, pattern] = cases[i]!;
    assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
    assert.equal(result.stdout, "", args.join(" "));
    assertOneLine(result.stderr, pattern);
  }
});

Deno.test("a group without a command prints its help on stderr and exits 2", async () => {
  const result = await smctl(["executor"]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /Usage: smctl executor/);
});

Deno.test("SMCTL_NAMESPACE stands in for --namespace", async () => {
  // Nothing listens: getting past the namespace check means reaching the network.
  const result = await smctl([
    "--address",
    `127.0.0.1:${freePort()}`,
    "--timeout",
    "2s",
    "executor",
    "list",
  ], {
    env: { SMCTL_NAMESPACE: "ns" },
  });
  assert.equal(result.code, 4, result.stderr);
});

Deno.test("an unreachable service exits 4 with one line naming the address, table or JSON", async () => {
  const address = `127.0.0.1:${freePort()}`;
  for (const extra of [[], ["--json"]]) {
    const started = performance.now();
    const result = await smctl([
      "--address",
      address,
      "--timeout",
      "2s",
      ...extra,
      "namespace",
      "list",
    ]);
    assert.equal(result.code, 4, result.stderr);
    assert.equal(result.stdout, "");
    assertOneLine(
      result.stderr,
      new RegExp(`cannot reach the service at ${address} \\(connection refused\\)`),
    );
    assert.ok(performance.now() - started < 20_000, "fails fast");
  }
});

Deno.test("a service that accepts but never answers exits 4 after --timeout", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of listener) held.push(conn); // silent: no HTTP/2 settings, no answer
  })();
  try {
    const address = `127.0.0.1:${listener.addr.port}`;
    const started = performance.now();
    const result = await smctl(["--address", address, "--timeout", "1s", "leader", "list"]);
    assert.equal(result.code, 4, result.stderr);
    assertOneLine(
      result.stderr,
      new RegExp(`no answer from ${address} to ListLeaders within 1s \\(raise --timeout\\?\\)$`),
    );
    assert.ok(performance.now() - started < 20_000);
  } finally {
    listener.close();
    for (const conn of held) conn.close();
    await accepting.catch(() => {});
  }
});

Deno.test("SMCTL_ADDRESS stands in for --address", async () => {
  const address = `127.0.0.1:${freePort()}`;
  const result = await smctl(["--timeout", "2s", "leader", "list"], {
    env: { SMCTL_ADDRESS: address },
  });
  assert.equal(result.code, 4);
  assert.ok(result.stderr.includes(address), result.stderr);
});

Deno.test("deno task smctl runs the program", async () => {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "smctl", "--help"],
    cwd: ROOT,
    stdin: "null",
  }).output();
  const text = new TextDecoder();
  assert.equal(
    code,
    0,
    `deno task smctl --help failed (the task needs the permissions in SMCTL_PERMISSIONS):\n${
      text.decode(stderr)
    }`,
  );
  assert.match(text.decode(stdout), /^Usage: smctl/);
});
