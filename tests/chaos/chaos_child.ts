/**
 * An SDK process of a chaos run: executors (one per namespace) or spectators
 * (one per namespace). It writes one JSON line per event to stdout, stamped
 * with `Date.now()` (comparable across the processes of one machine), and
 * stops gracefully on SIGTERM.
 *
 * Usage: `deno run -A chaos_child.ts executor|spectator <json ChildConfig>`.
 *
 * @module
 */
import {
  Executor,
  grpcHeartbeatTransport,
  type PrepareContext,
} from "../../src/client/executor/mod.ts";
import { createSpectator } from "../../src/client/spectator/mod.ts";
import { recordingTransport, writeWhileRunning } from "./child_records.ts";
import type { Ownership } from "./events.ts";
import { FencedStore } from "./fence_store.ts";

/** What the harness passes to a child. */
export interface ChildConfig {
  /** The process name, e.g. `exec-1`; executor ids are `<process>.<generation>`. */
  readonly process: string;
  /** How many times this process was started before. */
  readonly generation: number;
  /** Service addresses (for executors: the harness's proxies). */
  readonly addresses: readonly string[];
  /** The namespaces to run in or watch. */
  readonly namespaces: readonly { readonly name: string; readonly ownership: Ownership }[];
  readonly heartbeatIntervalMs: number;
  readonly heartbeatTimeoutMs: number;
  /** In exclusive namespaces, stop every processor after this long without a heartbeat. */
  readonly stopAfterMs: number;
  /**
   * Executors only: prepare incoming shards (warm handover) for about this
   * long before taking them over; absent: no `prepare` hook, every move cold.
   */
  readonly prepareMs?: number;
  /**
   * Executors only: a poison shard (`--scenario poison-*`): its processor
   * exits the process (`exit`) or its start throws (`throw`), every time.
   */
  readonly poison?: PoisonConfig;
  /**
   * Executors only: the fenced store (etcd endpoints and key prefix) every
   * processor writes to through its fencing token while it runs.
   */
  readonly fence?: { readonly endpoints: readonly string[]; readonly prefix: string };
}

/** The poison shard of a scenario run. */
export interface PoisonConfig {
  readonly namespace: string;
  readonly shard: string;
  readonly mode: "exit" | "throw";
}

const encoder = new TextEncoder();
const write = (line: Record<string, unknown>) =>
  Deno.stdout.writeSync(encoder.encode(JSON.stringify({ ...line, at: Date.now() }) + "\n"));

/** Starts `executor` without waiting for its first answer (services may still be starting). */
function startSoon(executor: Executor): Executor {
  void executor.start();
  return executor;
}

function runExecutors(config: ChildConfig): () => Promise<void> {
  const executor = `${config.process}.${config.generation}`;
  const store = config.fence && new FencedStore(config.fence.endpoints, config.fence.prefix);
  const executors = config.namespaces.map(({ name, ownership }) => {
    const sender = { process: config.process, executor, namespace: name };
    return startSoon(
      new Executor({
        addresses: config.addresses,
        // The SDK's own gRPC transport, each heartbeat and its outcome recorded.
        transport: recordingTransport(grpcHeartbeatTransport(config.addresses), sender, write),
        namespace: name,
        executorId: executor,
        heartbeatIntervalMs: config.heartbeatIntervalMs,
        heartbeatTimeoutMs: config.heartbeatTimeoutMs,
        drainTimeoutMs: 3_000,
        onUnreachable: ownership === "exclusive"
          ? { mode: "stop", afterMs: config.stopAfterMs }
          : { mode: "keep" },
        // A prepared shard is not served: the checker counts serving from the processor's start.
        ...(config.prepareMs === undefined ? {} : {
          prepare: (ctx: PrepareContext) =>
            new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, config.prepareMs);
              ctx.signal.addEventListener("abort", () => (clearTimeout(timer), resolve()));
            }),
        }),
        // Backoff of failed starts as in production, shorter: the chaos run is short.
        startRetryInitialMs: 500,
        startRetryMaxMs: 5_000,
        processor: (ctx) => {
          const shard = { process: config.process, executor, namespace: name, shard: ctx.shardKey };
          const poison = config.poison;
          if (poison && poison.namespace === name && poison.shard === ctx.shardKey) {
            write({ type: "poison", ...shard, mode: poison.mode });
            if (poison.mode === "exit") Deno.exit(70); // a processor that takes its process down
            throw new Error(`poison shard ${ctx.shardKey}: this start always fails`);
          }
          write({ type: "start", ...shard, token: ctx.fencingToken });
          if (store) writeWhileRunning(store, ctx, sender, write);
          return { stop: () => void write({ type: "stop", ...shard }) };
        },
      }),
    );
  });
  // Failed heartbeats (timeouts, unreachable): the harness counts them per executor and fault.
  const watching = new AbortController();
  for (const [i, e] of executors.entries()) {
    const namespace = config.namespaces[i]!.name;
    void (async () => {
      for await (const event of e.events({ signal: watching.signal })) {
        if (event.type !== "heartbeat-failed") continue;
        const { failures, error } = event;
        write({
          type: "heartbeat-failed",
          process: config.process,
          executor,
          namespace,
          failures,
          code: error.code,
        });
      }
    })().catch(() => {});
  }
  return async () => {
    await Promise.all(executors.map((e) => e.shutdown()));
    watching.abort();
    store?.close();
  };
}

function runSpectators(config: ChildConfig): () => Promise<void> {
  const controller = new AbortController();
  const spectators = config.namespaces.map(({ name }) => {
    const spectator = createSpectator({
      addresses: config.addresses,
      namespace: name,
      namespaceType: "fixed",
      backoff: { baseMs: 100, maxMs: 1_000 },
    });
    const owner = (shard: string, owner: string | null) =>
      write({ type: "owner", spectator: config.process, namespace: name, shard, owner });
    (async () => {
      for await (const change of spectator.changes({ signal: controller.signal })) {
        const owners = change.placement.owners;
        if (change.previousVersion === 0) {
          for (const [shard, o] of owners) owner(shard, o.executorId);
          continue;
        }
        for (const shard of change.added) owner(shard, owners.get(shard)?.executorId ?? null);
        for (const shard of change.removed) owner(shard, null);
        for (const move of change.moved) owner(move.shard, move.to);
      }
    })().catch((error) => Deno.stderr.writeSync(encoder.encode(`spectator ${name}: ${error}\n`)));
    return spectator;
  });
  return async () => {
    controller.abort();
    await Promise.all(spectators.map((s) => s.close()));
  };
}

if (import.meta.main) {
  const [mode = "", json = "{}"] = Deno.args;
  const config = JSON.parse(json) as ChildConfig;
  const close = mode === "executor" ? runExecutors(config) : runSpectators(config);
  write({ type: "ready", process: config.process });
  await new Promise<void>((resolve) => {
    Deno.addSignalListener("SIGTERM", () => void close().finally(resolve));
  });
  Deno.exit(0);
}
