/**
 * Collects the events of a chaos run, appends each to a JSON-lines file,
 * keeps the live view of which processors run, and keeps the unexpected
 * process deaths apart from the injected ones.
 *
 * @module
 */
import type { ChaosEvent, NamespaceSpec, StartEvent } from "./events.ts";
import type { ExitInfo } from "./supervised.ts";

/** A process death nobody asked for. */
export interface Crash {
  readonly process: string;
  readonly generation: number;
  readonly at: number;
  readonly code: number;
  readonly signal: string | null;
  /** The last lines of its stderr. */
  readonly stderrTail: string;
  /** A recognised cause, e.g. the Deno http2 GOAWAY assertion. */
  readonly known?: string;
}

/**
 * The lines of a crashed process's stderr that are not its JSON log lines,
 * without terminal colours: what it said as it died (the last `lines`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { crashLines } from "./recorder.ts";
 *
 * const tail = '{"level":"info","msg":"x"}\n\u001b[31merror\u001b[0m: Uncaught Error: boom\n    at f\n';
 * assert.deepEqual(crashLines(tail), ["error: Uncaught Error: boom", "    at f"]);
 * ```
 */
export function crashLines(stderrTail: string, lines = 40): string[] {
  // deno-lint-ignore no-control-regex -- terminal colour codes are what is removed
  const plain = stderrTail.replace(/\u001b\[[0-9;]*m/g, "");
  return plain.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("{")).slice(-lines);
}

const KNOWN_CRASHES: readonly [RegExp, string][] = [
  [/find_stream_on_goaway_func|closed_next == NULL/, "deno-http2-goaway-assertion"],
];

/** The event types a child may print (the others are the harness's own). */
const CHILD_EVENT_TYPES: ReadonlySet<string> = new Set([
  "start",
  "stop",
  "owner",
  "heartbeat",
  "write",
  "write-rejected",
]);

/** The recorder of one run. */
export class Recorder {
  readonly events: ChaosEvent[] = [];
  readonly crashes: Crash[] = [];
  /** Poison shard hits (`--scenario poison-*`): which executor failed with it, when. */
  readonly poisonHits: { readonly executor: string; readonly at: number }[] = [];
  /** Heartbeats an executor's SDK reported failed (timed out, unreachable): which process, when. */
  readonly heartbeatFailures: { readonly process: string; readonly at: number }[] = [];
  readonly #running = new Map<string, Map<string, StartEvent>>();
  readonly #file: Deno.FsFile | undefined;
  readonly #encoder = new TextEncoder();

  /** Appends every event to `path` as JSON lines, when given. */
  constructor(path?: string) {
    this.#file = path === undefined
      ? undefined
      : Deno.openSync(path, { create: true, write: true, truncate: true });
  }

  /** Records one event. */
  add(event: ChaosEvent): void {
    this.events.push(event);
    this.#file?.writeSync(this.#encoder.encode(JSON.stringify(event) + "\n"));
    if (event.type === "start") {
      const mine = this.#running.get(event.process) ?? new Map<string, StartEvent>();
      this.#running.set(event.process, mine);
      mine.set(`${event.executor}\u0000${event.namespace}\u0000${event.shard}`, event);
    } else if (event.type === "stop") {
      this.#running.get(event.process)
        ?.delete(`${event.executor}\u0000${event.namespace}\u0000${event.shard}`);
    }
  }

  /** Records a line a child printed; lines that are not events are ignored. */
  addLine(line: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return;
    }
    const type = (parsed as { type?: unknown }).type;
    if (type === "poison") {
      const hit = parsed as { executor?: unknown; at?: unknown };
      if (typeof hit.executor === "string" && typeof hit.at === "number") {
        this.poisonHits.push({ executor: hit.executor, at: hit.at });
      }
      return;
    }
    if (type === "heartbeat-failed") {
      const failed = parsed as { process?: unknown; at?: unknown };
      if (typeof failed.process === "string" && typeof failed.at === "number") {
        this.heartbeatFailures.push({ process: failed.process, at: failed.at });
      }
      return;
    }
    if (CHILD_EVENT_TYPES.has(type as string)) this.add(parsed as ChaosEvent);
  }

  /**
   * Records an exit: the process's processors stop with it (a synthetic stop
   * at the exit time), and an unexpected exit is a crash.
   */
  exited(info: ExitInfo): Crash | undefined {
    this.add({
      type: "exit",
      at: info.at,
      process: info.name,
      expected: info.expected,
      code: info.code,
      signal: info.signal,
    });
    for (const start of this.#running.get(info.name)?.values() ?? []) {
      const { process, executor, namespace, shard } = start;
      this.add({ type: "stop", at: info.at, process, executor, namespace, shard, cause: "exit" });
    }
    if (info.expected) return undefined;
    const known = KNOWN_CRASHES.find(([pattern]) => pattern.test(info.stderrTail))?.[1];
    const crash: Crash = {
      process: info.name,
      generation: info.generation,
      at: info.at,
      code: info.code,
      signal: info.signal,
      stderrTail: crashLines(info.stderrTail).join("\n").slice(-4_000),
      ...(known ? { known } : {}),
    };
    this.crashes.push(crash);
    return crash;
  }

  /** Non-drained shards with no running processor right now, as `namespace/shard`. */
  unowned(namespaces: readonly NamespaceSpec[], drained: ReadonlySet<string>): string[] {
    const owned = new Set<string>();
    for (const mine of this.#running.values()) {
      for (const s of mine.values()) owned.add(`${s.namespace}/${s.shard}`);
    }
    return namespaces.flatMap((n) => n.shards.map((s) => `${n.name}/${s}`))
      .filter((key) => !owned.has(key) && !drained.has(key));
  }

  /** Closes the file. */
  close(): void {
    this.#file?.close();
  }
}
