/**
 * Durability for the embedded store: a snapshot file plus an append-only
 * journal of JSON lines, one per committed revision, made durable in groups
 * (one `fdatasync` for every line queued while the previous sync ran).
 *
 * ```
 * <dataDir>/LOCK           held while a process has the store open
 * <dataDir>/snapshot.json  {"version":1,"revision":R,"namespaces":{"<ns>":ModelImage}}
 * <dataDir>/journal.jsonl  {"r":rev,"ns":"<ns>","e":[events]} | {"r":rev,"ns":"<ns>","reset":true}
 * ```
 *
 * @module
 */
import { join } from "node:path";
import type { NamespaceEvent } from "../store.ts";
import { type ModelImage, NamespaceModel } from "./namespace_model.ts";

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

/** The files of one data directory. */
export class Journal {
  #dir: string;
  #file: Deno.FsFile;
  #lock: Deno.FsFile;
  #pending: string[] = [];
  #chain: Promise<void> = Promise.resolve();
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
    const locked = await Promise.race([
      lock.lock(true).then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 500)),
    ]);
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

  /** Queues a record; resolves once it is on disk. */
  append(record: JournalRecord): Promise<void> {
    this.#pending.push(JSON.stringify(record) + "\n");
    this.#lines++;
    return this.#enqueue(() => this.#flush());
  }

  /**
   * Replaces the journal by a snapshot of `models` at `revision`. Lines queued
   * so far are covered by the snapshot and need not be written.
   */
  compact(revision: number, models: ReadonlyMap<string, NamespaceModel>): Promise<void> {
    const namespaces: Record<string, ModelImage> = {};
    for (const [ns, model] of models) if (!model.empty) namespaces[ns] = model.image();
    const text = JSON.stringify({ version: SNAPSHOT_VERSION, revision, namespaces });
    this.#pending = [];
    this.#lines = 0;
    return this.#enqueue(async () => {
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
    });
  }

  /** Waits for queued writes, then releases the files and the lock. */
  async close(): Promise<void> {
    await this.#chain;
    this.#file.close();
    this.#lock.close();
  }

  #enqueue(step: () => Promise<void>): Promise<void> {
    const next = this.#chain.then(step);
    this.#chain = next.catch(() => {});
    return next;
  }

  async #flush(): Promise<void> {
    if (this.#pending.length === 0) return;
    const text = this.#pending.join("");
    this.#pending = [];
    await writeAll(this.#file, encoder.encode(text));
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
    const parsed = JSON.parse(snapshot) as {
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
      record = JSON.parse(line);
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
    for (const event of record.e) model.apply(event, record.r);
  }
  return { revision, models, lines };
}
