// deno-lint-ignore-file no-console -- a diagnostic tool prints its result
/**
 * Measures what V8's string table does to reading a large assignment once a
 * process holds its numeric shard keys (see src/core/index_keys.ts): the
 * decode of one delta placing SHARDS shards over 1,000 executors, with and
 * without the keys "0".."SHARDS-1" as `Map` keys, by `JSON.parse` and by the
 * store's decoder, each followed by entering the shards into a `Map` as the
 * state does. Medians of 5 runs, in ms:
 *
 * ```sh
 * deno run -A bench/tools/string_table_probe.ts [SHARDS]
 * ```
 *
 * @module
 */
import { indexKeys } from "../../src/core/index_keys.ts";
import { decodeDelta, encodeDelta } from "../../src/store/etcd/codec.ts";
import { median } from "../lib/stats.ts";

const MODES = ["fresh process", "Map of fresh numeric keys held", "Map of the shared keys held"];
const shards = Number(Deno.args[0] ?? 1_000_000);
const mode = Deno.args[1];
if (!Number.isInteger(shards) || shards < 1 || (mode !== undefined && !MODES.includes(mode))) {
  console.error("usage: string_table_probe.ts [SHARDS]");
  Deno.exit(2);
}

if (mode === undefined) {
  // Each case in a process of its own: strings once in the table stay there until
  // a full GC, so one case would colour the next.
  const results = [];
  for (const m of MODES) {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", import.meta.filename!, String(shards), m],
      stderr: "inherit",
    });
    const { code, stdout } = await child.output();
    if (code !== 0) Deno.exit(code);
    results.push(JSON.parse(new TextDecoder().decode(stdout)));
  }
  console.log(JSON.stringify({ shards, results }, null, 1));
  Deno.exit(0);
}

const assign: Record<string, string[]> = {};
for (let i = 0; i < shards; i++) (assign[`executor-${i % 1000}`] ??= []).push(String(i));
const text = encodeDelta({ assign, unassign: [], remove: [] });
const kept: unknown[] = [];

function medianMs(run: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    kept.push(run());
    times.push(performance.now() - started);
    kept.length = 0;
  }
  return Math.round(median(times));
}

function intoMap(byExecutor: Readonly<Record<string, readonly string[]>>): Map<string, string> {
  const owners = new Map<string, string>();
  for (const [executor, list] of Object.entries(byExecutor)) {
    for (const shard of list) owners.set(shard, executor);
  }
  return owners;
}

// What a follower holds: a Map keyed by the shard keys, made with String(i) as a
// state without the shared keys would make them, or the shared keys.
const state = new Map<string, number>();
if (mode === MODES[1]) { for (let i = 0; i < shards; i++) state.set(String(i), i); }
if (mode === MODES[2]) { for (const key of indexKeys(shards)) state.set(key, 1); }
console.log(JSON.stringify({
  mode,
  jsonParseMs: medianMs(() => JSON.parse(text)),
  jsonParseIntoMapMs: medianMs(() =>
    intoMap((JSON.parse(text) as { a: Record<string, string[]> }).a)
  ),
  decodeDeltaIntoMapMs: medianMs(() => intoMap(decodeDelta(text).assign)),
}));
