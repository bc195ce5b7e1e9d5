/**
 * Where a shard's counters live while nobody serves it: read when a shard
 * is loaded, written when it moves away.
 *
 * @module
 */

/** A shard's counters: key → value. */
export type Counts = Readonly<Record<string, number>>;

/** Reads and writes the counters of a shard. */
export interface Snapshots {
  /** The shard's last saved counters, or undefined when none were saved. */
  read(shard: string): Promise<Counts | undefined>;
  /** Saves the shard's counters. */
  write(shard: string, counts: Counts): Promise<void>;
}

/**
 * Keeps nothing: every load starts from zero (the benchmark's nodes use it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unsavedSnapshots } from "./snapshots.ts";
 *
 * await unsavedSnapshots.write("1", { a: 2 });
 * assert.equal(await unsavedSnapshots.read("1"), undefined);
 * ```
 */
export const unsavedSnapshots: Snapshots = {
  read: () => Promise.resolve(undefined),
  write: () => Promise.resolve(),
};

/**
 * One JSON file per shard in `dir`, shared by every node on this machine.
 * Written to a temporary file and renamed, so a reader never sees half a
 * snapshot.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { directorySnapshots } from "./snapshots.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const snapshots = directorySnapshots(dir);
 * await snapshots.write("1", { a: 2 });
 * assert.deepEqual(await snapshots.read("1"), { a: 2 });
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function directorySnapshots(dir: string): Snapshots {
  const file = (shard: string) => `${dir}/shard-${encodeURIComponent(shard)}.json`;
  return {
    async read(shard) {
      try {
        return JSON.parse(await Deno.readTextFile(file(shard))) as Counts;
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return undefined;
        throw error;
      }
    },
    async write(shard, counts) {
      const tmp = `${file(shard)}.${crypto.randomUUID()}.tmp`;
      await Deno.writeTextFile(tmp, JSON.stringify(counts));
      await Deno.rename(tmp, file(shard));
    },
  };
}
