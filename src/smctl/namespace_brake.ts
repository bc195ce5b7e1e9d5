/**
 * `smctl namespace brake lift [NAMESPACE]`: lifts a namespace's mass-loss
 * brake (LiftBrake; docs/operations.md, "Mass loss"). Whichever instance smctl
 * reaches forwards the call to the namespace's leader, which holds the brake;
 * the lift is recorded in the namespace's history with the caller's identity.
 * `smctl namespace brake status [NAMESPACE]`: whether it holds, since when and
 * why, or how it was last released or lifted (GetBrake; any instance answers).
 *
 * @module
 */
import type { Command } from "commander";
import { type Context, runCommand } from "./context.ts";
import { brakeLine, brakeModel } from "./brake_format.ts";

/**
 * Adds `brake lift` and `brake status` to the `namespace` command group.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Command } from "commander";
 * import { registerNamespaceBrake } from "./namespace_brake.ts";
 *
 * const namespace = new Command("namespace");
 * registerNamespaceBrake(namespace);
 * const brake = namespace.commands[0]!;
 * assert.equal(brake.name(), "brake");
 * assert.deepEqual(brake.commands.map((c) => c.name()), ["lift", "status"]);
 * ```
 */
export function registerNamespaceBrake(namespace: Command): void {
  const brake = namespace.command("brake").description(
    "the mass-loss brake: lift it once the lost executors are known not to return",
  );
  brake.command("lift").argument("[namespace]", "namespace (or --namespace / -n)")
    .description(
      "lift the namespace's mass-loss brake: the leader places and balances as usual again (LiftBrake)",
    )
    .addHelpText(
      "after",
      `
While the brake holds (sm_brake_engaged = 1, a brake_engaged event in
smctl namespace events) shards of the lost executors that do not fit within the
survivors' capacity stay unowned. Lift it when the lost executors will not come
back soon and the survivors can take their shards. Lifting a brake that does
not hold changes nothing (exit code 0, "not engaged").

Examples:
  $ smctl namespace brake lift orders
  $ smctl -n orders namespace brake lift --json`,
    )
    .action((name: string | undefined, _opts: unknown, command: Command) =>
      runCommand(command, (ctx) => lift(ctx, name))
    );
  brake.command("status").argument("[namespace]", "namespace (or --namespace / -n)")
    .description(
      "whether the namespace's mass-loss brake holds, since when and why, or how it was last released (GetBrake)",
    )
    .addHelpText(
      "after",
      `
The leader records the brake in the store at every change, so any instance
answers, and the answer survives a leader change. JSON: {namespace, state
(engaged, lifted, released or never), since, reason, executorsBefore,
lostCount, lostExecutorIds, endedAt, liftedBy}.

Examples:
  $ smctl namespace brake status orders
  $ smctl -n orders namespace brake status -o json`,
    )
    .action((name: string | undefined, _opts: unknown, command: Command) =>
      runCommand(command, (ctx) => status(ctx, name))
    );
}

async function status(ctx: Context, name: string | undefined): Promise<void> {
  const namespace = name?.trim() || ctx.namespace();
  const brake = brakeModel(await ctx.connection.call("getBrake", { namespace }));
  ctx.output.result(
    { namespace, ...brake },
    () =>
      `Mass-loss brake of ${JSON.stringify(namespace)}: ${
        brakeLine(brake, Date.now(), ctx.output.palette)
      }`,
  );
}

async function lift(ctx: Context, name: string | undefined): Promise<void> {
  const namespace = name?.trim() || ctx.namespace();
  const { lifted } = await ctx.connection.call("liftBrake", { namespace });
  ctx.output.result(
    { namespace, lifted },
    () =>
      lifted
        ? `Lifted the mass-loss brake of namespace ${JSON.stringify(namespace)}.`
        : `The mass-loss brake of namespace ${JSON.stringify(namespace)} is not engaged.`,
  );
}
