/**
 * The handover suite's nodes: real processes of the sharded counter example
 * (`examples/sharded_counter/node.ts --events`), started and stopped by
 * name, their serving events gathered in one {@linkcode ServingTimeline}.
 *
 * @module
 */
import { readLines, Tail } from "./lines.ts";
import type { Scope } from "./scope.ts";
import { ServingTimeline } from "./serving_timeline.ts";
import { signalChild, spawnDeno, stopChild } from "./spawn.ts";
import { sleep } from "./wait.ts";

const NODE = new URL("../../examples/sharded_counter/node.ts", import.meta.url);

/** Options of {@linkcode CounterFleet}. */
export interface CounterFleetOptions {
  /** Service addresses. */
  readonly addresses: readonly string[];
  /** The namespace. */
  readonly namespace: string;
  /** Shards of the namespace. */
  readonly shards: number;
  /** A shard's load on its new owner, ms. */
  readonly loadMs: number;
  /** The executors' heartbeat interval, ms. */
  readonly heartbeatMs: number;
  /** The nodes prepare incoming shards (warm handover). @default {false} */
  readonly warmHandover?: boolean;
}

interface Node {
  readonly zone: string;
  readonly child: Deno.ChildProcess;
  readonly stderr: Tail;
  readonly exited: Promise<void>;
  drained: boolean;
}

/** Nodes of one namespace. */
export class CounterFleet {
  /** Who served which shard when. */
  readonly timeline: ServingTimeline = new ServingTimeline();
  readonly #options: CounterFleetOptions;
  readonly #nodes = new Map<string, Node>();
  #started = 0;

  /** An empty fleet; every node it starts is killed when `scope` closes. */
  constructor(scope: Scope, options: CounterFleetOptions) {
    this.#options = options;
    scope.defer(async () => {
      for (const node of this.#nodes.values()) signalChild(node.child, "SIGKILL");
      await Promise.all([...this.#nodes.values()].map((n) => n.exited));
    });
  }

  /** Nodes running now, by name. */
  get live(): string[] {
    return [...this.#nodes.keys()];
  }

  /** The zone of a running node. */
  zoneOf(name: string): string {
    return this.#nodes.get(name)!.zone;
  }

  /** Starts a node in `zone`; resolves with its name once its executor is registered. */
  async start(zone: string): Promise<string> {
    const name = `node-${++this.#started}`;
    const o = this.#options;
    const child = spawnDeno(NODE, [
      ...["--service", o.addresses.join(","), "--namespace", o.namespace],
      ...["--name", name, "--zone", zone, "--load-ms", String(o.loadMs)],
      ...["--heartbeat-ms", String(o.heartbeatMs), "--events"],
      ...["--warm-handover", o.warmHandover ? "on" : "off"],
    ], { stdin: "null" });
    const ready = Promise.withResolvers<void>();
    const stderr = new Tail();
    const onLine = (line: string) => {
      let event: { event?: string; shard?: string; at?: number };
      try {
        event = JSON.parse(line);
      } catch {
        return stderr.push(`(stdout) ${line}`);
      }
      if (event.event === "ready") ready.resolve();
      if (event.event === "serving") this.timeline.serving(name, event.shard!, event.at!);
      if (event.event === "unserving") this.timeline.unserving(name, event.shard!, event.at!);
    };
    const exited = Promise.all([
      readLines(child.stdout, onLine),
      readLines(child.stderr, (line) => stderr.push(line)),
      child.status,
    ]).then(() => {
      this.timeline.exited(name, Date.now());
      ready.reject(new Error(`${name} exited before it was ready:\n${stderr}`));
    });
    this.#nodes.set(name, { zone, child, stderr, exited, drained: false });
    await ready.promise;
    return name;
  }

  /** Sends SIGTERM to `name`; resolves with the ms until it exited (SIGKILL after 30 s). */
  async stop(name: string): Promise<number> {
    const node = this.#nodes.get(name);
    if (node === undefined) throw new Error(`No node ${name}`);
    const sent = performance.now();
    signalChild(node.child, "SIGTERM");
    await stopChild(node.child, 30_000);
    await node.exited;
    this.#nodes.delete(name);
    return performance.now() - sent;
  }

  /** Marks the nodes of `zone` drained: settling expects them to serve nothing. */
  drained(zone: string): string[] {
    const names = [...this.#nodes].filter(([, n]) => n.zone === zone).map(([name]) => name);
    for (const name of names) this.#nodes.get(name)!.drained = true;
    return names;
  }

  /**
   * Waits until every shard is served by exactly one node, the nodes not
   * drained serve shard counts at most one apart (the drained ones none),
   * and nothing changed for `quietMs`.
   */
  async settle(quietMs = 1_500, timeoutMs = 90_000): Promise<void> {
    const started = performance.now();
    while (true) {
      const problem = this.#unsettled();
      if (problem === undefined && performance.now() - this.timeline.lastChange >= quietMs) return;
      if (performance.now() - started > timeoutMs) {
        throw new Error(`The fleet did not settle in ${timeoutMs / 1000} s: ${problem ?? "busy"}`);
      }
      await sleep(100);
    }
  }

  #unsettled(): string | undefined {
    for (let s = 0; s < this.#options.shards; s++) {
      const holders = this.timeline.holders(String(s));
      if (holders.length !== 1) return `shard ${s} served by ${holders.length} nodes`;
    }
    const served = this.timeline.servedBy();
    const counts = [...this.#nodes].filter(([, n]) => !n.drained).map(([k]) => served.get(k) ?? 0);
    if (Math.max(...counts) - Math.min(...counts) > 1) return `unbalanced: ${counts.join(", ")}`;
    const busyDrained = [...this.#nodes].find(([k, n]) => n.drained && (served.get(k) ?? 0) > 0);
    if (busyDrained) return `${busyDrained[0]} is drained and still serves`;
    return undefined;
  }
}
