/**
 * A shared record file: JSON lines appended by several processes, read back
 * by the example's summary and by its test.
 *
 * @module
 */

const encoder = new TextEncoder();

/**
 * Appends `record` plus the current time (`at`, ms since the epoch, which
 * processes on one machine share) as one line. A single `O_APPEND` write, so
 * lines from concurrent processes never interleave.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { appendRecord, readRecords } from "./records.ts";
 * const path = await Deno.makeTempFile();
 * appendRecord(path, { kind: "start" });
 * assert.equal((await readRecords(path))[0]?.kind, "start");
 * ```
 */
export function appendRecord(path: string, record: Record<string, unknown>): void {
  const line = encoder.encode(JSON.stringify({ ...record, at: Date.now() }) + "\n");
  using file = Deno.openSync(path, { append: true, create: true });
  let written = 0;
  while (written < line.length) written += file.writeSync(line.subarray(written));
}

/**
 * Reads every complete record of `path` (none when it does not exist yet),
 * skipping a torn last line left by a process killed mid-write.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readRecords } from "./records.ts";
 * assert.equal((await readRecords("/nonexistent")).length, 0);
 * ```
 */
export async function readRecords<T = Record<string, unknown>>(path: string): Promise<T[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  const records: T[] = [];
  for (const line of text.split("\n")) {
    if (!line) continue;
    try {
      records.push(JSON.parse(line) as T);
    } catch { /* torn line */ }
  }
  return records;
}
