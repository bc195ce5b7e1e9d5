/**
 * `smctl completion bash|zsh|fish`: shell completion scripts generated from
 * the program's own command tree, so every command and flag (including those
 * added later) completes without editing this file.
 *
 * @module
 */
import { type Command, InvalidArgumentError, type Option } from "commander";
import { OUTPUT_FORMATS } from "./output.ts";

/** The shells a script can be made for. */
export const SHELLS = ["bash", "zsh", "fish"] as const;

/** One of {@linkcode SHELLS}. */
export type Shell = typeof SHELLS[number];

interface Node {
  /** Space-separated command path ("" for the program), by every alias. */
  readonly paths: readonly string[];
  readonly subcommands: readonly string[];
  readonly flags: readonly string[];
  readonly command: Command;
}

function flagsOf(options: readonly Option[]): string[] {
  return options.flatMap((o) => [o.short, o.long].filter((f): f is string => f !== undefined));
}

function walk(command: Command, paths: readonly string[], out: Node[]): Node[] {
  const subs = command.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
  out.push({
    paths,
    subcommands: subs.flatMap((c) => [c.name(), ...c.aliases()]),
    flags: flagsOf(command.options),
    command,
  });
  for (const sub of subs) {
    const names = [sub.name(), ...sub.aliases()];
    walk(sub, paths.flatMap((p) => names.map((n) => p === "" ? n : `${p} ${n}`)), out);
  }
  return out;
}

/** Flags (with a value) that say which service, namespace and credentials a name lookup uses. */
const CONNECTION_FLAGS = [
  "-n",
  "--namespace",
  "--address",
  "--endpoints",
  "--context",
  "--token",
  "--ca-file",
  "--cert-file",
  "--key-file",
  "--server-name",
];

/** Fish: names from the service, quietly and within 2 s. */
function fishNames(kind: string): string {
  return `(timeout 2 smctl --timeout 1s __complete ${kind} </dev/null 2>/dev/null)`;
}

const VALUES: Record<string, readonly string[]> = {
  "-o": OUTPUT_FORMATS,
  "--output": OUTPUT_FORMATS,
};

/** Every flag that takes a value, in any command: the word after it is not a command. */
function allValued(nodes: readonly Node[]): string[] {
  const flags = nodes.flatMap((n) =>
    n.command.options.filter((o) => o.required || o.optional).flatMap((o) => flagsOf([o]))
  );
  return [...new Set(flags)];
}

function quote(words: readonly string[]): string {
  return `"${words.join(" ")}"`;
}

function bash(program: Command): string {
  const nodes = walk(program, [""], []);
  const global = flagsOf(program.options);
  // Keys are "_" and the command path ("_", "_executor list"): bash has no empty keys.
  const subs = nodes.flatMap((n) =>
    n.paths.map((p) => `    [${quote([`_${p}`])}]=${quote(n.subcommands)}`)
  );
  const flags = nodes.flatMap((n) =>
    n.paths.map((p) => `    [${quote([`_${p}`])}]=${quote(p === "" ? [] : n.flags)}`)
  );
  const valued = program.options.filter((o) => o.required || o.optional).flatMap((o) =>
    flagsOf([o])
  );
  return `# bash completion for smctl: source <(smctl completion bash)
_smctl() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" path="" w i
  local -A subs=(
${subs.join("\n")}
  )
  local -A flags=(
${flags.join("\n")}
  )
  case "$prev" in
    -n|--namespace) COMPREPLY=($(compgen -W "$(_smctl_names namespaces)" -- "$cur")); return;;
    --context) COMPREPLY=($(compgen -W "$(_smctl_names contexts)" -- "$cur")); return;;
    --owner) COMPREPLY=($(compgen -W "$(_smctl_names executors)" -- "$cur")); return;;
    -o|--output) COMPREPLY=($(compgen -W ${quote(OUTPUT_FORMATS)} -- "$cur")); return;;
    ${
    valued.filter((f) => f.endsWith("-file")).join("|")
  }) COMPREPLY=($(compgen -f -- "$cur")); return;;
    ${valued.filter((f) => !VALUES[f] && !f.endsWith("-file")).join("|")}) COMPREPLY=(); return;;
  esac
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    case "$w" in ${allValued(nodes).join("|")}) ((i++)); continue;; -*) continue;; esac
    if [[ -n "\${subs[_\${path:+$path }$w]+set}" ]]; then path="\${path:+$path }$w"; fi
  done
  if [[ "$path" == "completion" ]]; then
    COMPREPLY=($(compgen -W ${quote(SHELLS)} -- "$cur")); return
  fi
  if [[ "$cur" != -* ]]; then
    case "$path" in
      "executor describe"|"executor drain"|"executor undrain")
        COMPREPLY=($(compgen -W "$(_smctl_names executors)" -- "$cur")); return;;
      "namespace get"|"namespace delete"|"ns get"|"ns delete")
        COMPREPLY=($(compgen -W "$(_smctl_names namespaces)" -- "$cur")); return;;
    esac
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "\${flags[_$path]} ${global.join(" ")} --help" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "\${subs[_$path]}" -- "$cur"))
  fi
}
# Names of namespaces, executors or contexts from the service (or the config
# file), asked with the connection flags typed so far; quiet, and at most 2 s.
_smctl_names() {
  local w i globals=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    case "$w" in
      ${CONNECTION_FLAGS.join("|")}) globals+=("$w" "\${COMP_WORDS[i+1]}");;
      --tls) globals+=("$w");;
    esac
  done
  if command -v timeout >/dev/null 2>&1; then
    timeout --foreground 2 "\${COMP_WORDS[0]}" "\${globals[@]}" --timeout 1s __complete "$1" </dev/null 2>/dev/null
  else
    "\${COMP_WORDS[0]}" "\${globals[@]}" --timeout 1s __complete "$1" </dev/null 2>/dev/null
  fi
}
complete -F _smctl smctl
`;
}

function zsh(program: Command): string {
  return `#compdef smctl
# zsh completion for smctl: source <(smctl completion zsh)
# (the bash completion, through zsh's bashcompinit)
autoload -U +X bashcompinit && bashcompinit
${bash(program).split("\n").slice(1).join("\n")}`;
}

function fishEscape(text: string): string {
  return `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

function fish(program: Command): string {
  const lines = [
    "# fish completion for smctl: smctl completion fish | source",
    "complete -c smctl -f",
  ];
  const nodes = walk(program, [""], []);
  const optionLine = (o: Option, condition?: string) => {
    const parts = ["complete -c smctl"];
    if (condition) parts.push(`-n ${fishEscape(condition)}`);
    if (o.short) parts.push(`-s ${o.short.replace(/^-/, "")}`);
    if (o.long) parts.push(`-l ${o.long.replace(/^--/, "")}`);
    if (o.required || o.optional) parts.push(o.long?.endsWith("-file") ? "-r -F" : "-r");
    const values = o.argChoices ?? VALUES[o.long ?? ""];
    if (values) parts.push(`-a ${fishEscape(values.join(" "))}`);
    const dynamic =
      { "--namespace": "namespaces", "--context": "contexts", "--owner": "executors" }[
        o.long ?? ""
      ];
    if (dynamic) parts.push(`-a ${fishEscape(fishNames(dynamic))}`);
    parts.push(`-d ${fishEscape(o.description)}`);
    return parts.join(" ");
  };
  for (const o of program.options) lines.push(optionLine(o));
  for (const node of nodes) {
    const path = node.paths[0]!;
    const words = path === "" ? [] : path.split(" ");
    const seen = words.map((w) => {
      const aliases = nodes.find((n) => n.paths.some((p) => p.split(" ").at(-1) === w))
        ?.command.aliases() ?? [];
      return `__fish_seen_subcommand_from ${[w, ...aliases].join(" ")}`;
    });
    const notDeeper = node.subcommands.length > 0
      ? [`not __fish_seen_subcommand_from ${node.subcommands.join(" ")}`]
      : [];
    const condition = path === ""
      ? "__fish_use_subcommand"
      : [...seen, ...notDeeper].join("; and ");
    for (const sub of node.command.commands) {
      lines.push(
        `complete -c smctl -n ${fishEscape(condition)} -a ${sub.name()} -d ${
          fishEscape(sub.description())
        }`,
      );
    }
    if (path !== "") {
      for (const o of node.command.options) lines.push(optionLine(o, seen.join("; and ")));
    }
  }
  lines.push(
    `complete -c smctl -n ${
      fishEscape(
        "__fish_seen_subcommand_from executor; and __fish_seen_subcommand_from describe drain undrain",
      )
    } -a ${fishEscape(fishNames("executors"))}`,
  );
  lines.push(
    `complete -c smctl -n '__fish_seen_subcommand_from completion' -a ${
      fishEscape(SHELLS.join(" "))
    }`,
  );
  return lines.join("\n") + "\n";
}

/**
 * The completion script of `program` for `shell`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildProgram } from "./program.ts";
 * import { completionScript } from "./completion.ts";
 *
 * assert.match(completionScript(buildProgram(), "bash"), /complete -F _smctl smctl/);
 * ```
 */
export function completionScript(program: Command, shell: Shell): string {
  switch (shell) {
    case "bash":
      return bash(program);
    case "zsh":
      return zsh(program);
    case "fish":
      return fish(program);
  }
}

/**
 * Adds `completion <shell>` to `program` (register it last, so the script
 * covers every other command).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Command } from "commander";
 * import { registerCompletionCommand } from "./completion.ts";
 *
 * const program = new Command("smctl");
 * registerCompletionCommand(program);
 * assert.equal(program.commands[0]!.name(), "completion");
 * ```
 */
export function registerCompletionCommand(program: Command): void {
  program.command("completion").description("print a shell completion script (bash, zsh, fish)")
    .argument("<shell>", "bash, zsh or fish", (value: string) => {
      if (!(SHELLS as readonly string[]).includes(value)) {
        throw new InvalidArgumentError(`expected one of ${SHELLS.join(", ")}`);
      }
      return value as Shell;
    })
    .addHelpText(
      "after",
      `
Examples:
  $ source <(smctl completion bash)        # in ~/.bashrc
  $ source <(smctl completion zsh)         # in ~/.zshrc
  $ smctl completion fish | source         # in ~/.config/fish/config.fish`,
    )
    .action((shell: Shell) => {
      const text = completionScript(program, shell);
      let bytes = new TextEncoder().encode(text);
      while (bytes.length > 0) bytes = bytes.subarray(Deno.stdout.writeSync(bytes));
    });
}
