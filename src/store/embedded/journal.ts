/**
 * Durability for the embedded store: a snapshot file plus an append-only
 * journal of JSON lines, one per committed revision, made durable in groups
 * (one `fdatasync` for every line queued while the previous sync ran).
 *
 * ```
 * <dataDir>/LOCK           held while a process has the store open
 * <dataDir>/snapshot.json  {"version":1,"revision":R,"namespaces":{"<ns>":ModelImage}}
 * <dataDir>/journal.jsonl  {"r":rev,"ns":"<ns>","e":[events]} | {"r":rev,"ns":"<ns>","reset":true}
 * <dataDir>/definitions.json  [{"name","source","spec","revision"}]: namespace definitions
 * ```
 *
 * @module
 */
import { join } from "node:path";
import type { NamespaceEvent } from "../store.ts";
import { type ModelImage, NamespaceModel } from "./namespace_model.ts";
import { sleep, systemClock } from "../../core/clock.ts";
import { parseJson } from "../../core/parse_json.ts";
import { reportsFrom } from "../../core/shared_reports.ts";

/** JSON.stringify's replacer: a map (an executor's reports) is written as a plain object. */
function plainMaps(_key: string, value: unknown): unknown {
  return value instanceof Map ? Object.fromEntries(value) : value;
}

/** One journal line. */
export type JournalRecord =
  | { readonly r: number; readonly ns: string; readonly e: readonly NamespaceEvent[] }
  | { readonly r: number; readonly ns: string; readonly reset: true };

/** What was on disk. */
export interface Recovered {
  /** Highest revision written. */
  readonly revision: number;
  /** Namespaces with anything stored. */
  readonly models: Map<string, NamespaceModel>;
}

const SNAPSHOT_VERSION = 1;
const encoder = new TextEncoder();
/** How long opening waits for the data directory's lock before saying another process has it, ms. */
const LOCK_WAIT_MS = 500;

interface Waiter {
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** The files of one data directory. */
export class Journal {
  #dir: string;
  #file: Deno.FsFile;
  #lock: Deno.FsFile;
  /** Lines queued for the next group write, with whoever waits for them. */
  #pending: { line: string; waiter: Waiter }[] = [];
  /** A snapshot to write before any line queued after it was taken. */
  #snapshot: { text: string; waiters: Waiter[] } | undefined;
  #writing: Promise<void> | undefined;
  #lines = 0;

  private constructor(dir: string, file: Deno.FsFile, lock: Deno.FsFile) {
    this.#dir = dir;
    this.#file = file;
    this.#lock = lock;
  }

  /** Lines appended since the last snapshot. */
  get lines(): number {
    return this.#lines;
  }

  /**
   * Opens (creating) `dir`, takes its lock, and replays what it holds. Fails
   * with a clear error when another process has it open.
   */
  static async open(dir: string): Promise<{ journal: Journal } & Recovered> {
    await Deno.mkdir(dir, { recursive: true });
    const lock = await Deno.open(join(dir, "LOCK"), { create: true, write: true });
    // The lock is another process's: its wait runs on the real clock.
    const gaveUp = new AbortController();
    const locked = await Promise.race([
      lock.lock(true).then(() => true),
      sleep(LOCK_WAIT_MS, gaveUp.signal, systemClock).then(() => false, () => false),
    ]);
    gaveUp.abort();
    if (!locked) {
      lock.close();
      throw new Error(`the data directory ${dir} is in use by another Shard Manager process`);
    }
    const recovered = await recover(dir);
    const file = await Deno.open(join(dir, "journal.jsonl"), { create: true, append: true });
    const journal = new Journal(dir, file, lock);
    journal.#lines = recovered.lines;
    return { journal, revision: recovered.revision, models: recovered.models };
  }

  /** Queues a record; resolves once it is on disk (in the journal or in a snapshot). */
  append(record: JournalRecord): Promise<void> {
    this.#lines++;
    return new Promise((resolve, reject) => {
      const line = JSON.stringify(record, plainMaps) + "\n";
      this.#pending.push({ line, waiter: { resolve, reject } });
      this.#kick();
    });
  }

  /**
   * Replaces the journal by a snapshot of `models` at `revision`, taken now.
   * Lines queued so far are covered by it: they are not written, and their
   * waiters resolve once the snapshot is on disk. Lines queued later go to
   * the new journal, after the snapshot.
   */
  compact(revision: number, models: ReadonlyMap<string, NamespaceModel>): Promise<void> {
    const namespaces: Record<string, ModelImage> = {};
    for (const [ns, model] of models) if (!model.empty) namespaces[ns] = model.image();
    const text = JSON.stringify({ version: SNAPSHOT_VERSION, revision, namespaces }, plainMaps);
    const covered = this.#pending.splice(0).map((p) => p.waiter);
    this.#lines = 0;
    return new Promise((resolve, reject) => {
      const waiters = [...(this.#snapshot?.waiters ?? []), ...covered, { resolve, reject }];
      this.#snapshot = { text, waiters };
      this.#kick();
    });
  }

  /** Waits for queued writes, then releases the files and the lock. */
  async close(): Promise<void> {
    while (this.#writing) await this.#writing;
    this.#file.close();
    this.#lock.close();
  }

  #kick(): void {
    this.#writing ??= this.#drain().finally(() => this.#writing = undefined);
  }

  /** Writes snapshots and groups of lines, in order, until nothing is queued. */
  async #drain(): Promise<void> {
    while (this.#snapshot || this.#pending.length > 0) {
      const snapshot = this.#snapshot;
      this.#snapshot = undefined;
      const batch = snapshot ? [] : this.#pending.splice(0);
      const waiters = snapshot ? snapshot.waiters : batch.map((p) => p.waiter);
      try {
        if (snapshot) await this.#writeSnapshot(snapshot.text);
        else {
          await writeAll(this.#file, encoder.encode(batch.map((p) => p.line).join("")));
          await this.#file.syncData();
        }
        for (const waiter of waiters) waiter.resolve();
      } catch (error) {
        for (const waiter of waiters) waiter.reject(error);
      }
    }
  }

  async #writeSnapshot(text: string): Promise<void> {
    const tmp = join(this.#dir, "snapshot.json.tmp");
    const file = await Deno.open(tmp, { create: true, write: true, truncate: true });
    try {
      await writeAll(file, encoder.encode(text));
      await file.syncData();
    } finally {
      file.close();
    }
    await Deno.rename(tmp, join(this.#dir, "snapshot.json"));
    await this.#file.truncate(0);
    await this.#file.syncData();
  }
}

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += await file.write(bytes.subarray(written));
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

async function recover(dir: string): Promise<Recovered & { lines: number }> {
  const models = new Map<string, NamespaceModel>();
  let revision = 0;
  const snapshot = await readText(join(dir, "snapshot.json"));
  if (snapshot !== undefined) {
    const parsed = parseJson(snapshot) as {
      version: number;
      revision: number;
      namespaces: Record<string, ModelImage>;
    };
    if (parsed.version !== SNAPSHOT_VERSION) {
      throw new Error(`${dir}/snapshot.json has version ${parsed.version}; expected 1`);
    }
    revision = parsed.revision;
    for (const [ns, image] of Object.entries(parsed.namespaces)) {
      models.set(ns, NamespaceModel.from(image));
    }
  }
  const journal = (await readText(join(dir, "journal.jsonl"))) ?? "";
  let lines = 0;
  for (const line of journal.split("\n")) {
    if (line === "") continue;
    let record: JournalRecord;
    try {
      record = parseJson(line) as JournalRecord;
    } catch {
      break; // a line cut short by a crash: everything after it is lost too
    }
    lines++;
    if (record.r <= revision) continue;
    revision = record.r;
    if ("reset" in record) {
      models.delete(record.ns);
      continue;
    }
    let model = models.get(record.ns);
    if (!model) models.set(record.ns, model = new NamespaceModel());
    for (const event of record.e) {
      // Reports are written as a plain object (plainMaps) and read back as a map.
      model.apply(
        event.type === "reports" ? { ...event, reports: reportsFrom(event.reports) } : event,
        record.r,
      );
    }
  }
  return { revision, models, lines };
}
