/**
 * smctl's command line: the global flags, the help texts, and the command
 * groups, built with commander.
 *
 * @module
 */
import { Command, Option } from "commander";
import project from "../../deno.json" with { type: "json" };
import { durationArgument, outputArgument } from "./arguments.ts";
import { registerExecutorCommands } from "./executor.ts";
import { registerLeaderCommands } from "./leader.ts";
import { registerNamespaceCommands } from "./namespace.ts";
import { registerShardCommands } from "./shard.ts";
import { registerSliceCommands } from "./slice_list.ts";
import { registerCompletionCommand } from "./completion.ts";
import { registerConfigCommands } from "./config_commands.ts";
import { registerCompleteNames } from "./complete_names.ts";

const GLOBAL_HELP = `
Flags can be given before or after the command. Durations are written like
500ms, 5s or 2m.

Output (-o): table, aligned for people (coloured on a terminal unless NO_COLOR
is set; --no-headers leaves out the header line); wide, the same with more
columns; json (or --json) and yaml, one document on stdout (namespace watch:
one JSON object per line, or one YAML document each); jsonpath=TEMPLATE, a
subset of kubectl's JSONPath applied to the JSON document, e.g.
-o jsonpath='{.executors[*].id}' or
-o jsonpath='{range .executors[*]}{.id}{"\t"}{.shardCount}{"\n"}{end}'.
Errors are one line on stderr.

Saved contexts: a config file ($SMCTL_CONFIG, else ~/.config/smctl/config.yaml)
holds named contexts of endpoints, credentials and a default namespace; pick
one with --context NAME, SMCTL_CONTEXT or smctl config use-context NAME. A flag
beats its environment variable, which beats the context. --endpoints ""
(empty) ignores SMCTL_ENDPOINTS, so --address, the context or the default
applies.

Every global flag can be set in the environment: SMCTL_ADDRESS,
SMCTL_ENDPOINTS, SMCTL_NAMESPACE, SMCTL_OUTPUT, SMCTL_JSON, SMCTL_TIMEOUT,
SMCTL_TLS, SMCTL_CA_FILE, SMCTL_CERT_FILE, SMCTL_KEY_FILE, SMCTL_SERVER_NAME,
SMCTL_TOKEN (or SM_TOKEN), SMCTL_CONTEXT. A flag on the command line wins; SMCTL_JSON and
SMCTL_TLS switch on when set to anything but "", "0" or "false".

Exit codes:
  0    success
  1    other error (internal error of the service, confirmation did not match)
  2    usage error: unknown command or flag, bad value, invalid argument
  3    not found: unknown namespace, shard or executor
  4    unavailable: the service or its etcd cannot be reached, or no answer in --timeout
  5    failed precondition, e.g. the shard is drained
  6    executor drain --wait timed out
  7    executor can-stop: some of the executors must wait
  130  interrupted while waiting

Examples:
  $ smctl namespace list
  $ export SMCTL_NAMESPACE=orders SMCTL_ADDRESS=sm.internal:7943
  $ smctl executor list
  $ smctl executor drain worker-7 --reason "INC-1234" --wait
  $ smctl shard inspect 42 --json
  $ smctl leader list --address 10.0.0.5:7943 --timeout 2s
  $ smctl --endpoints sm-1:7943,sm-2:7943,sm-3:7943 -o yaml namespace list
  $ smctl -n orders executor list -l zone=b -o wide
  $ source <(smctl completion bash)

See docs/smctl.md for the full reference and an operator's walkthrough.`;

/**
 * Builds the program. Commander is told to throw instead of exiting, so
 * `main.ts` owns the exit codes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildProgram } from "./program.ts";
 *
 * const program = buildProgram();
 * assert.deepEqual(program.commands.map((c) => c.name()), ["namespace", "executor", "shard", "slice", "leader", "config", "__complete", "completion"]);
 * assert.equal(program.opts().address, "127.0.0.1:7943");
 * ```
 */
export function buildProgram(): Command {
  const program = new Command("smctl")
    .description(
      "Operate Shard Manager: inspect namespaces, executors, shards and leaders; drain and undrain.",
    )
    .version(project.version, "-V, --version", "print the version")
    .exitOverride()
    .configureOutput({
      outputError: (text, write) => write(`smctl: ${text.replace(/^error: /, "")}`),
    })
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .showHelpAfterError("(add --help for usage)")
    .addOption(
      new Option("--address <host:port>", "Shard Manager instance to call (its gRPC port)")
        .default("127.0.0.1:7943").env("SMCTL_ADDRESS"),
    )
    .addOption(
      new Option(
        "--endpoints <host:port,...>",
        'instances to call, in order: the next is tried when one cannot be reached ("" for none)',
      ).env("SMCTL_ENDPOINTS"),
    )
    .addOption(
      new Option("-n, --namespace <name>", "namespace to work on (commands that need one)")
        .env("SMCTL_NAMESPACE"),
    )
    .addOption(
      new Option(
        "-o, --output <format>",
        "result format: table, wide, json, yaml or jsonpath=TEMPLATE",
      ).argParser(outputArgument).env("SMCTL_OUTPUT"),
    )
    .addOption(new Option("--no-headers", "tables without their header line"))
    .addOption(
      new Option(
        "--context <name>",
        "saved context to use (see smctl config); default: the config's current-context",
      ).env("SMCTL_CONTEXT"),
    )
    .addOption(
      new Option("--json", "the same as -o json: one JSON document on stdout").env("SMCTL_JSON"),
    )
    .addOption(
      new Option("--timeout <duration>", "deadline of each call to the service")
        .default(10_000, "10s").argParser(durationArgument).env("SMCTL_TIMEOUT"),
    )
    .addOption(
      new Option("--tls", "connect with TLS (implied by the other TLS flags)").env("SMCTL_TLS"),
    )
    .addOption(
      new Option("--ca-file <path>", "PEM file of the CA that signed the server's certificate")
        .env("SMCTL_CA_FILE"),
    )
    .addOption(
      new Option("--cert-file <path>", "PEM file of this client's certificate (mutual TLS)")
        .env("SMCTL_CERT_FILE"),
    )
    .addOption(
      new Option("--key-file <path>", "PEM file of this client's private key (mutual TLS)")
        .env("SMCTL_KEY_FILE"),
    )
    .addOption(
      new Option("--server-name <name>", "name to verify in the server's certificate")
        .env("SMCTL_SERVER_NAME"),
    )
    .addOption(
      new Option(
        "--token <token>",
        "bearer token for a service with roles (security.auth); SM_TOKEN also works",
      ).env("SMCTL_TOKEN"),
    )
    .addHelpText("after", GLOBAL_HELP);
  registerNamespaceCommands(program);
  registerExecutorCommands(program);
  registerShardCommands(program);
  registerSliceCommands(program);
  registerLeaderCommands(program);
  registerConfigCommands(program);
  registerCompleteNames(program);
  registerCompletionCommand(program); // last: its scripts cover every command above
  return program;
}
