/**
 * `smctl executor ...`: list and describe executors, drain them by id or
 * metadata selector, and ask whether they may stop now.
 *
 * @module
 */
import { type Command, Option } from "commander";
import { durationArgument } from "./arguments.ts";
import { type Context, runCommand } from "./context.ts";
import { drainExecutors, type DrainOptions } from "./executor_drain.ts";
import { canStopExecutors, type CanStopOptions } from "./executor_can_stop.ts";
import { undrainExecutors, type UndrainOptions } from "./executor_undrain.ts";
import { drainTable } from "./drain_format.ts";
import { executorDetail, executorTable } from "./executor_format.ts";
import { drainModel, executorDetailModel, executorModel } from "./model.ts";
import { showList } from "./list_watch.ts";
import { collectSelectorPair, listSelectorOption, selectRows } from "./selector.ts";

/**
 * Adds the `executor` command group to `program`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Command } from "commander";
 * import { registerExecutorCommands } from "./executor.ts";
 *
 * const program = new Command("smctl");
 * registerExecutorCommands(program);
 * const group = program.commands[0]!;
 * assert.equal(group.name(), "executor");
 * assert.deepEqual(group.commands.map((c) => c.name()), ["list", "describe", "drain", "undrain", "drains", "can-stop"]);
 * ```
 */
export function registerExecutorCommands(program: Command): void {
  const executor = program.command("executor").description(
    "list, describe, drain and undrain executors (the hosts that own shards)",
  ).addHelpText(
    "after",
    `
Examples:
  $ smctl -n orders executor list
  $ smctl -n orders executor drain worker-7 --reason "INC-1234" --wait
  $ smctl -n orders executor undrain worker-7`,
  );

  executor.command("list").description(
    "list executors: status, alive, heartbeat age, shards, load, drained",
  )
    .addHelpText(
      "after",
      `
Example:
  $ smctl -n orders executor list
  $ smctl -n orders executor list --json | jq '.executors[] | select(.alive | not) | .id'
  $ smctl -n orders executor list -l zone=b -o wide
  $ smctl -n orders executor list --watch
  $ smctl -n orders executor list --no-headers -o jsonpath='{range .executors[*]}{.id}{"\\n"}{end}'`,
    )
    .addOption(listSelectorOption("metadata (and the fields id and status)"))
    .option("-w, --watch", "print the list again each time the namespace changes (Ctrl-C to stop)")
    .action((opts: { selector?: string[]; watch?: boolean }, command: Command) =>
      runCommand(command, (ctx) => list(ctx, opts.selector, opts.watch === true))
    );

  executor.command("describe").description(
    "show one executor: status, heartbeat, drains, metadata and its shards with their loads",
  )
    .argument("<id>", "executor id")
    .addHelpText(
      "after",
      `
Example:
  $ smctl -n orders executor describe worker-7`,
    )
    .action((id: string, _opts: unknown, command: Command) =>
      runCommand(command, (ctx) => describe(ctx, id))
    );

  executor.command("drain").description(
    "drain executors by id or metadata selector: their shards move away and they get no new ones",
  )
    .argument("[ids...]", "executor ids (need not be registered yet)")
    .addOption(selectorOption("drain every executor whose metadata has this pair"))
    .option("--reason <text>", "why, kept with the drain (e.g. a ticket number)")
    .option("--wait", "wait until the drained executors hold no shards, showing progress on stderr")
    .option("--force", "drain even when it breaks the disruption budget (see below)")
    .option(
      "--dry-run",
      "print the executors matched and the shards that would move and where; change nothing",
    )
    .option(
      "-A, --all-namespaces",
      "drain in every namespace where the executor (or a match of the selector) runs now",
    )
    .addOption(
      new Option("--wait-timeout <duration>", "give up waiting after this long (exit code 6)")
        .default(300_000, "5m").argParser(durationArgument),
    )
    .addHelpText(
      "after",
      `
Give one or more executor ids, or one or more --selector pairs (all must
match). Each id is its own drain. The drain is stored in etcd: it survives
restarts of the service and of the executor, and a selector drain also
catches executors that register later. Draining again with the same id or
selector returns the existing drain.

--all-namespaces (-A) drains a host in every namespace where an executor with
that id (or matching the selector) is registered now, instead of -n; an id
registered nowhere is an error (exit 3) and nothing is drained.

Disruption budget: a drain that would leave a shard with no eligible owner, or
drain more than the namespace's maxDrainedShare (default 50%) of its live
executors, is refused with code 5 naming the numbers and the drains already in
place; --force makes it anyway. With several drains, they are made one by one:
a refusal stops there and names the ones this command already made (they stay).
--dry-run checks each drain alone against the drains in place now.
Every call carries a request id and is retried with it when the service does
not answer, so it is applied at most once.

Examples:
  $ smctl -n orders executor drain worker-7 --reason "INC-1234 bad disk" --wait
  $ smctl -n orders executor drain worker-7 worker-8 worker-9
  $ smctl executor drain worker-7 --all-namespaces --reason "kernel upgrade"
  $ smctl -n orders executor drain --selector zone=b --dry-run
  $ smctl -n orders executor drain --selector hostname=worker-7 --selector zone=b
  $ smctl -n orders executor drain worker-7 --wait --wait-timeout 10m --json`,
    )
    .action((ids: string[], opts: DrainOptions, command: Command) =>
      runCommand(command, (ctx) =>
        drainExecutors(ctx, ids, {
          ...opts,
          waitTimeoutGiven: command.getOptionValueSource("waitTimeout") === "cli",
        }))
    );

  executor.command("undrain").description(
    "remove executor drains, given the same ids or selector they were made with",
  )
    .argument("[ids...]", "executor ids")
    .addOption(selectorOption("the selector of the drain to remove"))
    .option("-A, --all-namespaces", "remove the drain in every namespace that has it")
    .option("--dry-run", "list the drains that would be removed; change nothing")
    .addHelpText(
      "after",
      `
Prints a warning when other drains still keep some of the executors drained.
Removing a drain that does not exist is not an error.

Examples:
  $ smctl -n orders executor undrain worker-7
  $ smctl -n orders executor undrain worker-7 worker-8
  $ smctl executor undrain worker-7 --all-namespaces --dry-run
  $ smctl -n orders executor undrain --selector hostname=worker-7`,
    )
    .action((ids: string[], opts: UndrainOptions, command: Command) =>
      runCommand(command, (ctx) => undrainExecutors(ctx, ids, opts))
    );

  executor.command("drains").description("list the executor drains of a namespace")
    .addHelpText(
      "after",
      `
Example:
  $ smctl -n orders executor drains
  $ smctl -n orders executor drains -l kind=selector`,
    )
    .addOption(listSelectorOption("fields kind (id or selector) and executor"))
    .action((opts: { selector?: string[] }, command: Command) =>
      runCommand(command, (ctx) => drains(ctx, opts.selector))
    );

  executor.command("can-stop").description(
    "ask whether executors may stop now (for rolling deploys): exit 0 if all may, 7 if some must wait",
  )
    .argument("[ids...]", "executor ids")
    .addOption(selectorOption("every executor whose metadata has this pair"))
    .option(
      "-A, --all-namespaces",
      "look in every namespace (the default when no namespace is set)",
    )
    .addHelpText(
      "after",
      `
Answers whether stopping these executors now keeps every shard with an
eligible owner and every namespace within its disruption budget
(maxDrainedShare), by the rules a drain is checked with: a drain of the same
executors is refused exactly when this says they must wait. Executors already
drained or leaving (DRAINING) count against the budget until they are gone.
When not all may stop, the answer names a subset that may stop first
(mayStop); ask again once those have stopped. Looks in the namespace given
(-n, SMCTL_NAMESPACE or the context), else in every namespace: an executor in
several namespaces may stop only when each allows it. The PENDING column
counts an executor's shards still being handed over to another owner: it has
not finished leaving.

Exit codes: 0 all may stop now; 7 some must wait (the answer is still
printed); other codes as usual (2 usage, 3 unknown namespace, 4 unreachable).
deploy/can-stop.sh polls this until allowed or a timeout.

Examples:
  $ smctl executor can-stop worker-7 worker-8
  $ smctl executor can-stop --selector zone=a -o json
  $ smctl -n orders executor can-stop worker-7 && kill -TERM "$PID"`,
    )
    .action((ids: string[], opts: CanStopOptions, command: Command) =>
      runCommand(command, (ctx) => canStopExecutors(ctx, ids, opts))
    );
}

function selectorOption(description: string): Option {
  return new Option("-s, --selector <key=value>", `${description} (repeatable)`)
    .argParser(collectSelectorPair);
}

async function list(
  ctx: Context,
  selector: readonly string[] | undefined,
  watch: boolean,
): Promise<void> {
  const namespace = ctx.namespace();
  await showList(ctx, namespace, watch, async (signal) => {
    const state = await ctx.connection.call("getNamespaceState", { namespace }, signal);
    const executors = selectRows(
      state.executors.map(executorModel),
      selector,
      (e) => ({ ...e.metadata, id: e.id, status: e.status }),
    );
    return {
      value: { namespace, executors },
      // A watch prints again on a change, not on every heartbeat's new age.
      changeKey: JSON.stringify(
        executors.map(({ heartbeatAgeMs: _, lastHeartbeat: __, ...rest }) => rest),
      ),
      human: (wide) => executorTable(executors, ctx.output.palette, wide),
    };
  });
}

async function describe(ctx: Context, executorId: string): Promise<void> {
  const namespace = ctx.namespace();
  const answer = await ctx.connection.call("getExecutorState", { namespace, executorId });
  if (answer.executor === null) throw new Error("GetExecutorState answered without an executor");
  const detail = executorDetailModel(answer.executor);
  ctx.output.result(
    { namespace, executor: detail },
    () => executorDetail(detail, Date.now(), ctx.output.palette),
  );
}

async function drains(ctx: Context, selector?: readonly string[]): Promise<void> {
  const namespace = ctx.namespace();
  const answer = await ctx.connection.call("listExecutorDrains", { namespace });
  const models = selectRows(
    answer.drains.map(drainModel),
    selector,
    (d) => ({ kind: d.kind, ...(d.executorId ? { executor: d.executorId } : {}) }),
  );
  ctx.output.result(
    { namespace, drains: models },
    () => drainTable(models, Date.now(), ctx.output.palette),
  );
}
