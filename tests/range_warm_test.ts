/**
 * Warm handover of slice moves in a key-range namespace, with SDK executors
 * against a real etcd and service: an executor with a `prepare` hook joins a
 * namespace whose slices another one serves, and each slice that moves to it
 * is prepared first (the hook gets the slice's range, while the old owner
 * keeps serving it), then switched: its processor starts with what the hook
 * returned, for the same range, and with the token the prepare announced.
 * In an exclusive namespace the switch is a handover: the old owner's
 * processor has stopped before the new one starts.
 */
import assert from "node:assert/strict";
import { Executor, type PrepareContext, type ShardContext } from "../src/client/executor/mod.ts";
import { startEtcd } from "./support/etcd.ts";
import { eventually } from "./support/executors.ts";
import {
  RANGE_NAMESPACE as NS,
  type RunningSlices,
  startRangeInstance,
  startSliceExecutor,
} from "./support/range_namespace.ts";

interface Prepared {
  readonly slice: string;
  readonly range: string;
  readonly token: string;
}

const rangeOf = (slice: PrepareContext["slice"]) =>
  slice ? `${slice.start}-${slice.end}@${slice.generation}` : "none";

Deno.test("range namespace, warm handover: slices moved to an executor with prepare arrive prepared", async () => {
  await warmMoves(false);
});

Deno.test("exclusive range namespace, warm handover: prepared first, then handed over (never run twice)", async () => {
  await warmMoves(true);
});

async function warmMoves(exclusive: boolean): Promise<void> {
  await using etcd = await startEtcd();
  const instance = await startRangeInstance(etcd, `range warm${exclusive ? " exclusive" : ""}`, {
    range: { churnBudget: 4 },
    exclusive,
  });
  const address = instance.server.address;
  const running: RunningSlices = new Map();
  const a = startSliceExecutor(address, "a", running);
  const prepares: Prepared[] = [];
  const started: { slice: string; prepared: Prepared | undefined; range: string; token: string }[] =
    [];
  const twice: string[] = [];
  let b: Executor<Prepared> | undefined;
  try {
    await eventually(() => (running.get("a")?.size ?? 0) >= 8, 15_000, "a serves every slice");
    // Every slice reports some load, so that balancing moves half of them to b.
    const loader = setInterval(() => {
      for (const ctx of running.get("a")!.values()) ctx.reportKeyLoad(`k-${ctx.shardKey}`, 10);
    }, 50);
    try {
      b = new Executor<Prepared>({
        addresses: address,
        namespace: NS,
        executorId: "b",
        metadata: { zone: "b" },
        heartbeatIntervalMs: 200,
        prepare: (ctx: PrepareContext) => {
          const prepared = {
            slice: ctx.shardKey,
            range: rangeOf(ctx.slice),
            token: ctx.fencingToken,
          };
          prepares.push(prepared);
          return Promise.resolve(prepared);
        },
        processor: (ctx: ShardContext<Prepared>) => {
          if (running.get("a")!.has(ctx.shardKey)) twice.push(ctx.shardKey);
          started.push({
            slice: ctx.shardKey,
            prepared: ctx.prepared,
            range: rangeOf(ctx.slice),
            token: ctx.fencingToken,
          });
          return { stop: () => {} };
        },
      });
      void b.start();
      await eventually(() => started.length >= 2, 20_000, "slices switched to b");
    } finally {
      clearInterval(loader);
    }
    for (const s of started) {
      assert.ok(s.prepared, `slice ${s.slice} arrived cold`);
      assert.equal(s.prepared.slice, s.slice);
      assert.notEqual(s.prepared.range, "none", "the prepare hook knows the slice's range");
      assert.equal(s.prepared.range, s.range, "prepared for the range it serves");
      assert.equal(s.prepared.token, s.token, "the token the prepare announced");
    }
    assert.ok(prepares.length >= started.length);
    if (exclusive) assert.deepEqual(twice, [], "started on b while a still ran them");
  } finally {
    await Promise.all([a.shutdown(), b?.shutdown()]);
    await instance.stop();
  }
}
