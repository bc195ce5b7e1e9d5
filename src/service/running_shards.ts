/**
 * What executors of exclusive namespaces run, as this instance knows it: the
 * reports they last sent here (taken from ingestion as soon as a heartbeat is
 * validated, before it is recorded), the evidence the views and metrics judge
 * "owned but not running" on (routing/not_running.ts), and the history events
 * of executors that hold shards they do not run (not_running_notes.ts).
 *
 * Events are recorded by the instance an executor heartbeats to, and only for
 * executors heard within the heartbeat TTL: it knows first, also while its
 * store stalls, and two instances do not both write the same event.
 *
 * @module
 */
import { type Clock, sleep } from "../core/clock.ts";
import { HeardReports } from "../heartbeat/heard_reports.ts";
import type { Heartbeat } from "../heartbeat/validate_heartbeat.ts";
import type { OwnershipPolicy, PolicyBudgets } from "../policy/namespace_policy.ts";
import type { InspectionTime } from "../routing/liveness.ts";
import { notRunningShards, type RunningEvidence } from "../routing/not_running.ts";
import type { NamespaceView } from "../state/namespace_view.ts";
import { type Note, NotRunningNotes, type NotRunningNotesOptions } from "./not_running_notes.ts";

/** A namespace as this needs it (a `NamespaceRuntime` is one). */
export interface RunningNamespace {
  /** Its name. */
  readonly name: string;
  /** Its policy: judged only when its ownership is exclusive. */
  readonly policy: {
    readonly ownership: OwnershipPolicy;
    readonly budgets: Pick<PolicyBudgets, "heartbeatTtlMs">;
  };
  /** Its picture. */
  readonly view: NamespaceView;
}

/** Options of {@linkcode RunningShards.run}. */
export interface RunningShardsRunOptions extends NotRunningNotesOptions {
  /** The namespaces served now. */
  readonly namespaces: () => readonly RunningNamespace[];
  /** The instance's time, as inspection takes it. */
  readonly time: () => InspectionTime;
  /** Records a history event of `namespace`. */
  readonly record: (namespace: string, note: Note) => void;
  /** How often executors are judged for history events. @default {1000} */
  readonly intervalMs?: number;
}

/**
 * Executors' running shards on this instance.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemClock } from "../core/clock.ts";
 * import { RunningShards } from "./running_shards.ts";
 *
 * const running = new RunningShards(systemClock);
 * const policy = { ownership: { mode: "available" }, budgets: { heartbeatTtlMs: 2_000 } } as const;
 * assert.equal(running.evidence({ name: "ns", policy }), undefined); // available: not judged
 * ```
 */
export class RunningShards {
  readonly #heard = new HeardReports();
  readonly #clock: Clock;
  readonly #notes = new Map<string, NotRunningNotes>();

  /** Reads time from `clock`. */
  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Ingestion's hook (`IngestNamespace.heard`): remembers a validated heartbeat. */
  readonly hear = (heartbeat: Heartbeat): void => {
    this.#heard.heard(heartbeat, this.#clock.monotonic());
  };

  /** The evidence of an exclusive namespace; undefined for an available one. */
  evidence(ns: Pick<RunningNamespace, "name" | "policy">): RunningEvidence | undefined {
    if (ns.policy.ownership.mode !== "exclusive") return undefined;
    const heard = this.#heard;
    const name = ns.name;
    return {
      heard: (executorId) => heard.latest(name, executorId),
      heartbeatTtlMs: ns.policy.budgets.heartbeatTtlMs,
    };
  }

  /** Judges every executor heard within its TTL once, recording the events due. */
  tick(options: Omit<RunningShardsRunOptions, "intervalMs">): void {
    const time = options.time();
    const served = new Set<string>();
    for (const ns of options.namespaces()) {
      const evidence = this.evidence(ns);
      if (evidence === undefined) continue;
      served.add(ns.name);
      let notes = this.#notes.get(ns.name);
      if (notes === undefined) this.#notes.set(ns.name, notes = new NotRunningNotes(options));
      const ttl = evidence.heartbeatTtlMs;
      const view = ns.view;
      for (const [id] of this.#heard.heardSince(ns.name, time.now - ttl)) {
        const e = view.executor(id);
        if (e === undefined) continue; // not recorded yet: it holds nothing
        const shards = notRunningShards(view, e, time, evidence);
        const note = notes.observe(id, shards, time.now, (s) => view.ownersOf(s).includes(id));
        if (note !== undefined) options.record(ns.name, note);
      }
      notes.endRound();
      this.#heard.forgetBefore(ns.name, time.now - Math.max(10 * ttl, 60_000));
    }
    for (const name of [...this.#notes.keys()]) if (!served.has(name)) this.#notes.delete(name);
    for (const name of [...this.#heard.namespaces()]) {
      if (!served.has(name)) this.#heard.forgetBefore(name, Infinity);
    }
  }

  /** Ticks every `intervalMs` until `signal` aborts. */
  async run(signal: AbortSignal, options: RunningShardsRunOptions): Promise<void> {
    const intervalMs = options.intervalMs ?? 1_000;
    while (!signal.aborted) {
      try {
        await sleep(intervalMs, signal, this.#clock);
      } catch {
        return;
      }
      this.tick(options);
    }
  }
}
