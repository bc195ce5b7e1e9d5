/**
 * Reading Prometheus text exposition: the service's `/metrics` and etcd's.
 *
 * @module
 */

/** One sample: metric name, labels, value. */
export interface Sample {
  /** Metric name, e.g. `grpc_server_handled_total`. */
  readonly name: string;
  /** Labels. */
  readonly labels: Readonly<Record<string, string>>;
  /** Value. */
  readonly value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/**
 * Parses the text format (comments skipped).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseMetrics } from "./prom.ts";
 *
 * const [s] = parseMetrics('x_total{a="1"} 3\n');
 * assert.equal(s!.name, "x_total");
 * assert.equal(s!.labels.a, "1");
 * assert.equal(s!.value, 3);
 * ```
 */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = LINE.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? "").matchAll(LABEL)) labels[key!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/**
 * Sums the samples named `name` whose labels include `labels`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseMetrics, sumMetric } from "./prom.ts";
 *
 * const samples = parseMetrics('x{m="a",c="OK"} 2\nx{m="a",c="NO"} 1\nx{m="b",c="OK"} 5\n');
 * assert.equal(sumMetric(samples, "x", { m: "a" }), 3);
 * ```
 */
export function sumMetric(
  samples: readonly Sample[],
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number {
  let total = 0;
  for (const s of samples) {
    if (s.name !== name) continue;
    if (Object.entries(labels).every(([k, v]) => s.labels[k] === v)) total += s.value;
  }
  return total;
}

/**
 * The upper bound of the bucket holding quantile `q` of the observations a
 * histogram gained between `before` and `after` (samples of its `_bucket`
 * series with `labels`); NaN when it gained none, Infinity past the last bound.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { histogramQuantile, parseMetrics } from "./prom.ts";
 *
 * const at = (a: number, b: number, c: number) =>
 *   parseMetrics(`h_bucket{le="0.1"} ${a}\nh_bucket{le="1"} ${b}\nh_bucket{le="+Inf"} ${c}\n`);
 * assert.equal(histogramQuantile(at(0, 0, 0), at(90, 99, 100), "h", {}, 0.99), 1);
 * assert.equal(histogramQuantile(at(0, 0, 0), at(100, 100, 100), "h", {}, 0.99), 0.1);
 * ```
 */
export function histogramQuantile(
  before: readonly Sample[],
  after: readonly Sample[],
  name: string,
  labels: Readonly<Record<string, string>>,
  q: number,
): number {
  const gained = (le: string) =>
    sumMetric(after, `${name}_bucket`, { ...labels, le }) -
    sumMetric(before, `${name}_bucket`, { ...labels, le });
  const bounds = [
    ...new Set(after.filter((s) => s.name === `${name}_bucket`).map((s) => s.labels.le!)),
  ].sort((a, b) => Number(a) - Number(b));
  const total = gained("+Inf");
  if (!(total > 0)) return NaN;
  for (const le of bounds) if (gained(le) >= q * total) return Number(le);
  return Infinity;
}

/**
 * GETs `http://<hostPort>/metrics` and parses it.
 *
 * @example
 * ```ts ignore
 * import { scrape, sumMetric } from "./prom.ts";
 *
 * const samples = await scrape("127.0.0.1:7944");
 * console.log(sumMetric(samples, "sm_shards_owned"));
 * ```
 */
export async function scrape(hostPort: string, timeoutMs = 10_000): Promise<Sample[]> {
  const url = hostPort.startsWith("http") ? `${hostPort}/metrics` : `http://${hostPort}/metrics`;
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return parseMetrics(await response.text());
}

/** etcd's write requests and puts so far, from its `/metrics`. */
export interface EtcdWrites {
  /** Txn + Put + DeleteRange RPCs handled. */
  readonly writeRpcs: number;
  /** Txn RPCs handled. */
  readonly txns: number;
  /** Keys put (`etcd_mvcc_put_total`). */
  readonly puts: number;
  /** Raft proposals committed. */
  readonly proposals: number;
  /** etcd's own CPU seconds. */
  readonly cpuSeconds: number;
}

/**
 * Counts etcd's write traffic at `endpoint` (`host:port`).
 *
 * @example
 * ```ts ignore
 * import { etcdWrites } from "./prom.ts";
 *
 * const before = await etcdWrites("127.0.0.1:2379");
 * ```
 */
export async function etcdWrites(endpoint: string): Promise<EtcdWrites> {
  const samples = await scrape(endpoint);
  const handled = (method: string) =>
    sumMetric(samples, "grpc_server_handled_total", { grpc_method: method });
  return {
    writeRpcs: handled("Txn") + handled("Put") + handled("DeleteRange"),
    txns: handled("Txn"),
    puts: sumMetric(samples, "etcd_mvcc_put_total"),
    proposals: sumMetric(samples, "etcd_server_proposals_committed_total"),
    cpuSeconds: sumMetric(samples, "process_cpu_seconds_total"),
  };
}
