/**
 * Process metrics read from Deno at scrape time, in place of prom-client's
 * Node.js defaults (whose `nodejs_*` event-loop, handle and GC figures come
 * from Node.js hooks that Deno does not implement faithfully, and whose
 * `*_active_handles_total` gauges break Prometheus naming), plus
 * `sm_build_info`.
 *
 * @module
 */
import process from "node:process";
import * as prom from "prom-client";
import project from "../../deno.json" with { type: "json" };

/** The version of this build, from deno.json. */
export const BUILD_VERSION: string = project.version;

/**
 * Registers `sm_build_info`, `sm_process_cpu_seconds_total`,
 * `sm_process_resident_memory_bytes`, `sm_process_heap_bytes`,
 * `sm_process_external_memory_bytes`,
 * `sm_process_start_time_seconds` and (where /proc can be read)
 * `sm_process_open_fds` on `registry`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as prom from "prom-client";
 * import { registerProcessMetrics } from "./process_metrics.ts";
 *
 * const registry = new prom.Registry();
 * registerProcessMetrics(registry);
 * const text = await registry.metrics();
 * assert.match(text, /^sm_build_info\{version="[^"]+",deno="[^"]+"/m);
 * assert.match(text, /^sm_process_resident_memory_bytes \d+/m);
 * ```
 */
export function registerProcessMetrics(registry: prom.Registry): void {
  const registers = [registry];
  new prom.Gauge({
    name: "sm_build_info",
    help: "Always 1; the labels say which build runs: version, deno, v8, typescript.",
    labelNames: ["version", "deno", "v8", "typescript"],
    registers,
  }).set({
    version: BUILD_VERSION,
    deno: Deno.version.deno,
    v8: Deno.version.v8,
    typescript: Deno.version.typescript,
  }, 1);
  new prom.Counter({
    name: "sm_process_cpu_seconds_total",
    help: "CPU time (user and system) this process used.",
    registers,
    collect() {
      const { user, system } = process.cpuUsage();
      this.reset();
      this.inc((user + system) / 1e6);
    },
  });
  new prom.Gauge({
    name: "sm_process_resident_memory_bytes",
    help: "Resident set size of the process.",
    registers,
    collect() {
      this.set(Deno.memoryUsage().rss);
    },
  });
  new prom.Gauge({
    name: "sm_process_heap_bytes",
    help: "The V8 heap: used (live objects) and allocated (reserved by V8).",
    labelNames: ["state"],
    registers,
    collect() {
      const { heapUsed, heapTotal } = Deno.memoryUsage();
      this.set({ state: "used" }, heapUsed);
      this.set({ state: "allocated" }, heapTotal);
    },
  });
  new prom.Gauge({
    name: "sm_process_external_memory_bytes",
    help: "Memory held outside the V8 heap by objects it manages (buffers).",
    registers,
    collect() {
      this.set(Deno.memoryUsage().external);
    },
  });
  const startSeconds = (Date.now() - performance.now()) / 1000;
  new prom.Gauge({
    name: "sm_process_start_time_seconds",
    help: "When the process started, seconds since the Unix epoch.",
    registers,
  }).set(Math.round(startSeconds));
  if (openFds() !== undefined) {
    new prom.Gauge({
      name: "sm_process_open_fds",
      help: "Open file descriptors (sockets included), from /proc/self/fd.",
      registers,
      collect() {
        const n = openFds();
        if (n !== undefined) this.set(n);
      },
    });
  }
}

function openFds(): number | undefined {
  try {
    let n = 0;
    for (const _ of Deno.readDirSync("/proc/self/fd")) n++;
    return n;
  } catch {
    return undefined; // not Linux, or no --allow-read
  }
}
