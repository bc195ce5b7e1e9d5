/**
 * A namespace's history on etcd: one key per event under
 * `<prefix>/history/<ns>/<event id>`, the value the event as JSON. Ids sort
 * by time, so a range read from a cursor returns events in order.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { Etcd3 } from "etcd3";
import { StoreUnavailableError } from "../../core/errors.ts";
import type { HistoryEvent } from "../../core/history_event.ts";
import type { HistoryQuery } from "../history_store.ts";
import { prefixEnd } from "./keys.ts";
import { del, errorText, put, writeAll } from "./txn.ts";
import { parseJson } from "../../core/parse_json.ts";

/** `<prefix>/history/<ns>/`. */
export function historyPrefix(prefix: string, namespace: string): string {
  return `${prefix}/history/${namespace}/`;
}

/** Appends events. */
export async function appendHistory(
  client: Etcd3,
  prefix: string,
  namespace: string,
  events: readonly HistoryEvent[],
): Promise<void> {
  const from = historyPrefix(prefix, namespace);
  await writeAll(client, events.map((e) => put(`${from}${e.id}`, JSON.stringify(e))));
}

async function range(client: Etcd3, key: string, end: string, limit?: number) {
  try {
    return (await client.kv.range({
      key: Buffer.from(key),
      range_end: Buffer.from(end),
      ...(limit === undefined ? {} : { limit }),
    })).kvs;
  } catch (cause) {
    throw new StoreUnavailableError(`etcd read failed: ${errorText(cause)}`, { cause });
  }
}

/** Reads events after a cursor or a time, oldest first. */
export async function readHistory(
  client: Etcd3,
  prefix: string,
  namespace: string,
  query: HistoryQuery,
): Promise<HistoryEvent[]> {
  const from = historyPrefix(prefix, namespace);
  const since = query.sinceMs === undefined
    ? ""
    : String(Math.max(0, Math.floor(query.sinceMs))).padStart(15, "0");
  const after = query.afterId === undefined ? "" : `${query.afterId}\u0000`;
  const start = `${from}${after > since ? after : since}`;
  const kvs = await range(client, start, prefixEnd(from), query.limit);
  const events: HistoryEvent[] = [];
  for (const kv of kvs) {
    try {
      events.push(parseJson(kv.value.toString()) as HistoryEvent);
    } catch {
      // A damaged entry is skipped; the log is advisory.
    }
  }
  return events;
}

/**
 * The namespaces with any history key, sorted. A skip scan: one keys-only
 * read of a single key per namespace (the first key after the previous
 * namespace's range), so its cost grows with the namespaces, not the events.
 */
export async function historyNamespaces(client: Etcd3, prefix: string): Promise<string[]> {
  const root = `${prefix}/history/`;
  const end = prefixEnd(root);
  const names: string[] = [];
  for (let from = root;;) {
    let kvs;
    try {
      kvs = (await client.kv.range({
        key: Buffer.from(from),
        range_end: Buffer.from(end),
        keys_only: true,
        limit: 1,
      })).kvs;
    } catch (cause) {
      throw new StoreUnavailableError(`etcd read failed: ${errorText(cause)}`, { cause });
    }
    const key = kvs[0]?.key.toString();
    if (key === undefined) return names;
    const name = key.slice(root.length).split("/")[0]!;
    names.push(name);
    from = prefixEnd(historyPrefix(prefix, name));
  }
}

async function keysIn(
  client: Etcd3,
  key: string,
  end: string,
  options: { limit?: number; countOnly?: boolean } = {},
): Promise<{ keys: string[]; count: number }> {
  try {
    const answer = await client.kv.range({
      key: Buffer.from(key),
      range_end: Buffer.from(end),
      keys_only: true,
      ...(options.limit === undefined ? {} : { limit: options.limit }),
      ...(options.countOnly ? { count_only: true } : {}),
    });
    return { keys: answer.kvs.map((kv) => kv.key.toString()), count: Number(answer.count) };
  } catch (cause) {
    throw new StoreUnavailableError(`etcd read failed: ${errorText(cause)}`, { cause });
  }
}

/**
 * Drops events before `beforeMs` and beyond the newest `keep` (`Infinity`:
 * by age only). Reads only the keys it drops (and a count), so a sweep of a
 * namespace with nothing past its retention costs two small reads.
 */
export async function trimHistory(
  client: Etcd3,
  prefix: string,
  namespace: string,
  beforeMs: number,
  keep: number,
): Promise<number> {
  const from = historyPrefix(prefix, namespace);
  const end = prefixEnd(from);
  const cutoff = `${from}${String(Math.max(0, Math.floor(beforeMs))).padStart(15, "0")}`;
  const doomed = (await keysIn(client, from, cutoff)).keys;
  if (Number.isFinite(keep)) {
    const { count } = await keysIn(client, cutoff, end, { countOnly: true });
    const over = count - Math.max(0, Math.floor(keep));
    if (over > 0) doomed.push(...(await keysIn(client, cutoff, end, { limit: over })).keys);
  }
  if (doomed.length > 0) await writeAll(client, doomed.map((key) => del(key)));
  return doomed.length;
}
