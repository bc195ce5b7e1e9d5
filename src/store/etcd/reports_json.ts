/**
 * An executor's shard reports as stored: `{"<shard>":["READY",<load>],…}`,
 * one JSON object per executor. Written and read here directly, without a
 * plain object in between: at 1,000,000 shards every executor's first report
 * of its new shards is written and read back once (1,000 texts of ~20 KB in a
 * few seconds), and a plain object keyed by shard numbers costs ~0.2 ms just
 * to list its keys (core/types.ts, `ShardReports`). The text is what
 * `JSON.stringify` writes for such an object; a text this reader does not
 * take (one with an escape, a space, or anything unexpected) is read by
 * `parseJson` instead, so every valid text reads the same either way.
 *
 * @module
 */
import { indexKey } from "../../core/index_keys.ts";
import { parseJson } from "../../core/parse_json.ts";
import { sharedReport, withTopKeys } from "../../core/shared_reports.ts";
import type { ShardReport, ShardReports, ShardStatus } from "../../core/types.ts";

/**
 * Encodes `reports` as stored (keys in the map's order).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { encodeReports } from "./reports_json.ts";
 *
 * const text = encodeReports(new Map([["7", { status: "READY", load: 1.5 }]]));
 * assert.equal(text, '{"7":["READY",1.5]}');
 * ```
 */
export function encodeReports(reports: ShardReports): string {
  let text = "{";
  for (const [key, report] of reports) {
    if (text.length > 1) text += ",";
    text += plainKey(key) ? `"${key}"` : JSON.stringify(key);
    text += report.status === "READY" ? ':["READY",' : `:[${JSON.stringify(report.status)},`;
    text += JSON.stringify(report.load);
    // Failed starts (poison shards) only when there are some: a third element. A key-range
    // slice's top keys are a fourth, [[key, load], ...] (the third then written as 0).
    if (report.topKeys?.length) {
      text += `,${report.failedStarts ?? 0},${
        JSON.stringify(report.topKeys.map((k) => [k.key, k.load]))
      }]`;
    } else text += report.failedStarts ? `,${report.failedStarts}]` : "]";
  }
  return text + "}";
}

/** True when `key` needs no escaping in JSON (no quote, backslash, control character or surrogate). */
function plainKey(key: string): boolean {
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}

/**
 * Decodes stored reports; equal reports share one frozen object
 * (core/shared_reports.ts) and keys that are shard numbers are the process's
 * shared strings (core/index_keys.ts).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeReports } from "./reports_json.ts";
 *
 * const reports = decodeReports('{"7":["READY",1.5],"a b":["DONE",0]}');
 * assert.deepEqual([...reports.keys()], ["7", "a b"]);
 * assert.equal(reports.get("a b")?.status, "DONE");
 * assert.equal(decodeReports('{ "7" : ["READY", 2] }').get("7")?.load, 2); // not ours: parsed
 * ```
 */
export function decodeReports(text: string): ShardReports {
  return readDirectly(text) ?? readGenerally(text);
}

function readGenerally(text: string): ShardReports {
  const raw = parseJson(text) as Record<
    string,
    [ShardStatus, number, number?, [string, number][]?]
  >;
  const out = new Map<string, ShardReport>();
  for (const [key, [status, load, failedStarts, topKeys]] of Object.entries(raw)) {
    const report = sharedReport(status, load, failedStarts ?? 0);
    out.set(
      key,
      Array.isArray(topKeys)
        ? withTopKeys(report, topKeys.map(([k, l]) => ({ key: String(k), load: Number(l) })))
        : report,
    );
  }
  return out;
}

const QUOTE = 0x22, COMMA = 0x2c, COLON = 0x3a, OPEN = 0x5b, END = 0x7d;

/** The reports when `text` is exactly as {@linkcode encodeReports} writes them, else undefined. */
function readDirectly(text: string): ShardReports | undefined {
  if (text.charCodeAt(0) !== 0x7b || text.includes("\\")) return undefined;
  const out = new Map<string, ShardReport>();
  let at = 1;
  if (text.charCodeAt(at) === END) return at + 1 === text.length ? out : undefined;
  while (true) {
    // "key"
    if (text.charCodeAt(at) !== QUOTE) return undefined;
    const keyEnd = text.indexOf('"', at + 1);
    if (keyEnd < 0) return undefined;
    const key = keyOf(text, at + 1, keyEnd);
    if (key === undefined) return undefined;
    at = keyEnd + 1;
    // :["STATUS",
    if (text.charCodeAt(at) !== COLON || text.charCodeAt(at + 1) !== OPEN) return undefined;
    let status: ShardStatus;
    if (text.startsWith('"READY",', at + 2)) status = "READY", at += 10;
    else if (text.startsWith('"DONE",', at + 2)) status = "DONE", at += 9;
    else if (text.startsWith('"NOT_RUNNING",', at + 2)) status = "NOT_RUNNING", at += 16;
    else if (text.startsWith('"PREPARED",', at + 2)) status = "PREPARED", at += 13;
    else return undefined;
    // load] or load,failedStarts]
    const loadEnd = text.indexOf("]", at);
    if (loadEnd < 0) return undefined;
    const comma = text.indexOf(",", at);
    const load = numberOf(text, at, comma >= 0 && comma < loadEnd ? comma : loadEnd);
    if (load === undefined) return undefined;
    let failedStarts = 0;
    if (comma >= 0 && comma < loadEnd) {
      const n = numberOf(text, comma + 1, loadEnd);
      if (n === undefined || !Number.isInteger(n) || n < 0) return undefined;
      failedStarts = n;
    }
    out.set(key, sharedReport(status, load, failedStarts));
    at = loadEnd + 1;
    const next = text.charCodeAt(at++);
    if (next === END) return at === text.length ? out : undefined;
    if (next !== COMMA) return undefined;
  }
}

/** The key between `start` and `end` (no escapes): a shard number's shared string, else a slice. */
function keyOf(text: string, start: number, end: number): string | undefined {
  const length = end - start;
  if (length === 0) return "";
  if (length <= 15 && (text.charCodeAt(start) !== 0x30 || length === 1)) {
    let n = 0;
    for (let i = start; i < end; i++) {
      const digit = text.charCodeAt(i) - 0x30;
      if (digit < 0 || digit > 9) return plainText(text, start, end);
      n = n * 10 + digit;
    }
    return indexKey(n);
  }
  return plainText(text, start, end);
}

/** A key with a control character is not what JSON.stringify writes: left to the parser. */
function plainText(text: string, start: number, end: number): string | undefined {
  for (let i = start; i < end; i++) if (text.charCodeAt(i) < 0x20) return undefined;
  return text.slice(start, end);
}

/** A JSON number between `start` and `end`; undefined for anything else. */
function numberOf(text: string, start: number, end: number): number | undefined {
  let n = 0;
  let simple = end - start <= 15 && end > start;
  for (let i = start; i < end && simple; i++) {
    const digit = text.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9 || (i === start && digit === 0 && end - start > 1)) simple = false;
    else n = n * 10 + digit;
  }
  if (simple) return n;
  const slice = text.slice(start, end);
  // JSON's grammar for a number (Number() alone would take "0x1", " 1", "Infinity").
  if (!/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(slice)) return undefined;
  return Number(slice);
}
