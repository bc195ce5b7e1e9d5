/**
 * The ledger of completed ticks, shared by every node: a JSON-lines file
 * whose writes are serialized with an exclusive file lock and fenced by the
 * leader's token. A write carrying a lower token than the highest the ledger
 * has seen is rejected, so a deposed leader that wakes up late (paused,
 * partitioned, slow) cannot record a tick its successor owns.
 *
 * @module
 */

/** A leader announced itself: from now on lower tokens are rejected. */
export interface LeaseEntry {
  /** Entry kind. */
  readonly kind: "lease";
  /** The leader's fencing token (a decimal string). */
  readonly token: string;
  /** The leader's node name. */
  readonly node: string;
  /** The leader's process id. */
  readonly pid: number;
  /** When it was written, ms since the epoch. */
  readonly at: number;
}

/** A tick ran. */
export interface RunEntry {
  /** Entry kind. */
  readonly kind: "run";
  /** The scheduled time of the tick, ISO 8601. */
  readonly tick: string;
  /** The token of the leader that ran it. */
  readonly token: string;
  /** The node that ran it. */
  readonly node: string;
  /** That node's process id. */
  readonly pid: number;
  /** How late it started, ms (a catch-up after a leader change is late by seconds). */
  readonly lateMs: number;
  /** What the job did. */
  readonly result: string;
  /** When it was written, ms since the epoch. */
  readonly at: number;
}

/** One line of the ledger. */
export type LedgerEntry = LeaseEntry | RunEntry;

/** A write carried a lower token than the highest the ledger has seen. */
export class StaleTokenError extends Error {
  /** The rejected token. */
  readonly token: string;
  /** The highest token seen. */
  readonly highest: string;
  /** Creates the error. */
  constructor(token: string, highest: string) {
    super(`Token ${token} is stale: the ledger has seen token ${highest}`);
    this.name = "StaleTokenError";
    this.token = token;
    this.highest = highest;
  }
}

/** The tick is already in the ledger. */
export class DuplicateTickError extends Error {
  /** The tick, ISO 8601. */
  readonly tick: string;
  /** Creates the error. */
  constructor(tick: string) {
    super(`Tick ${tick} already ran`);
    this.name = "DuplicateTickError";
    this.tick = tick;
  }
}

/** What a new leader learns when it fences the ledger. */
export interface FenceResult {
  /** The most recent tick that ran, if any. */
  readonly lastTick: Date | undefined;
}

/** A tick to record. */
export interface RunInput {
  /** The tick's scheduled time. */
  readonly tick: Date;
  /** The leader's fencing token. */
  readonly token: string;
  /** The leader's node name. */
  readonly node: string;
  /** How late the tick started, ms. */
  readonly lateMs: number;
  /** What the job did. */
  readonly result: string;
}

const encoder = new TextEncoder();

/**
 * A ledger file shared by the nodes of one cron job.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FencedLedger, StaleTokenError } from "./ledger.ts";
 *
 * const ledger = new FencedLedger(await Deno.makeTempFile());
 * await ledger.fence({ token: "7", node: "a" });
 * await ledger.commit({ tick: new Date(0), token: "7", node: "a", lateMs: 0, result: "ok" });
 * await ledger.fence({ token: "9", node: "b" });
 * const stale = ledger.commit({ tick: new Date(1000), token: "7", node: "a", lateMs: 0, result: "" });
 * await assert.rejects(stale, StaleTokenError);
 * ```
 */
export class FencedLedger {
  readonly #path: string;

  /** Uses the file at `path`, creating it on the first write. */
  constructor(path: string) {
    this.#path = path;
  }

  /** The file's path. */
  get path(): string {
    return this.#path;
  }

  /** Every entry, in the order written. */
  async entries(): Promise<LedgerEntry[]> {
    return parse(await readText(this.#path));
  }

  /**
   * Announces a new leader: rejects with {@linkcode StaleTokenError} if a
   * higher token was seen, otherwise records the lease (raising the bar for
   * everyone else) and returns the last tick that ran.
   */
  fence(lease: { readonly token: string; readonly node: string }): Promise<FenceResult> {
    return this.#locked((entries, append) => {
      checkToken(entries, lease.token);
      append({ kind: "lease", token: lease.token, node: lease.node, pid: Deno.pid });
      const runs = entries.filter((e): e is RunEntry => e.kind === "run");
      const last = runs.at(-1);
      return { lastTick: last ? new Date(last.tick) : undefined };
    });
  }

  /**
   * Records that `run.tick` ran. Rejects with {@linkcode StaleTokenError}
   * when a higher token was seen and {@linkcode DuplicateTickError} when the
   * tick is already recorded; either way nothing is written.
   */
  commit(run: RunInput): Promise<void> {
    return this.#locked((entries, append) => {
      checkToken(entries, run.token);
      const tick = run.tick.toISOString();
      if (entries.some((e) => e.kind === "run" && e.tick === tick)) {
        throw new DuplicateTickError(tick);
      }
      append({ kind: "run", ...run, tick, pid: Deno.pid });
    });
  }

  async #locked<T>(
    fn: (entries: LedgerEntry[], append: (entry: Record<string, unknown>) => void) => T,
  ): Promise<T> {
    using file = await Deno.open(this.#path, { read: true, append: true, create: true });
    await file.lock(true);
    try {
      const text = await readText(this.#path);
      const pending: string[] = [];
      // A writer killed mid-line leaves a torn line: end it so ours parses.
      if (text.length > 0 && !text.endsWith("\n")) pending.push("");
      const result = fn(parse(text), (entry) => {
        pending.push(JSON.stringify({ ...entry, at: Date.now() }));
      });
      if (pending.length > (pending[0] === "" ? 1 : 0)) {
        const bytes = encoder.encode(pending.join("\n") + "\n");
        let written = 0;
        while (written < bytes.length) written += await file.write(bytes.subarray(written));
      }
      return result;
    } finally {
      await file.unlock();
    }
  }
}

function checkToken(entries: readonly LedgerEntry[], token: string): void {
  let highest: bigint | undefined;
  for (const e of entries) {
    if (highest === undefined || BigInt(e.token) > highest) highest = BigInt(e.token);
  }
  if (highest !== undefined && BigInt(token) < highest) {
    throw new StaleTokenError(token, String(highest));
  }
}

async function readText(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "";
    throw error;
  }
}

function parse(text: string): LedgerEntry[] {
  const entries: LedgerEntry[] = [];
  for (const line of text.split("\n")) {
    if (!line) continue;
    try {
      entries.push(JSON.parse(line) as LedgerEntry);
    } catch { /* a torn line: its write never completed */ }
  }
  return entries;
}
