import assert from "node:assert/strict";
import { completionScript } from "./completion.ts";
import { buildProgram } from "./program.ts";

/** Runs the bash script's completion function on `words` (the last one is being typed). */
async function complete(words: readonly string[]): Promise<string[]> {
  const script = completionScript(buildProgram(), "bash");
  const quoted = words.map((w) => `'${w}'`).join(" ");
  const { code, stdout, stderr } = await new Deno.Command("bash", {
    args: [
      "-c",
      `${script}\nCOMP_WORDS=(${quoted}); COMP_CWORD=${
        words.length - 1
      }; _smctl; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const err = new TextDecoder().decode(stderr);
  assert.equal(code, 0, err);
  assert.equal(err, "", "no bash errors");
  return new TextDecoder().decode(stdout).split("\n").filter((l) => l !== "");
}

Deno.test("bash completion offers commands, subcommands, flags and -o formats", async () => {
  assert.deepEqual(await complete(["smctl", "ex"]), ["executor"]);
  assert.deepEqual(await complete(["smctl", "-n", "orders", "executor", ""]), [
    "list",
    "describe",
    "drain",
    "undrain",
    "drains",
    "can-stop",
  ]);
  assert.deepEqual(await complete(["smctl", "ns", "l"]), ["list"]);
  const flags = await complete(["smctl", "executor", "list", "--"]);
  for (const flag of ["--selector", "--endpoints", "--output", "--namespace", "--help"]) {
    assert.ok(flags.includes(flag), `${flag} in ${flags}`);
  }
  assert.ok(!(await complete(["smctl", "leader", "list", "--w"])).includes("--wait"));
  assert.ok((await complete(["smctl", "executor", "drain", "--w"])).includes("--wait"));
  assert.deepEqual(await complete(["smctl", "-o", ""]), ["table", "wide", "json", "yaml"]);
  assert.deepEqual(await complete(["smctl", "completion", ""]), ["bash", "zsh", "fish"]);
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/ca.pem`, "");
  await Deno.writeTextFile(`${dir}/cb.pem`, "");
  assert.deepEqual((await complete(["smctl", "--ca-file", `${dir}/c`])).sort(), [
    `${dir}/ca.pem`,
    `${dir}/cb.pem`,
  ]);
  await Deno.remove(dir, { recursive: true });
  assert.deepEqual(await complete(["smctl", "--address", ""]), []);
});

Deno.test("zsh and fish scripts name every command group", () => {
  const program = buildProgram();
  const zsh = completionScript(program, "zsh");
  assert.match(zsh, /^#compdef smctl/);
  assert.match(zsh, /bashcompinit/);
  const fish = completionScript(program, "fish");
  for (const group of ["namespace", "executor", "shard", "leader", "config", "completion"]) {
    assert.match(fish, new RegExp(`-n '__fish_use_subcommand' -a ${group} `));
  }
  assert.match(fish, /-s o -l output -r -a 'table wide json yaml'/);
  assert.match(fish, /-l ca-file -r -F /);
  assert.match(fish, /__fish_seen_subcommand_from executor; and __fish_seen_subcommand_from drain/);
});
