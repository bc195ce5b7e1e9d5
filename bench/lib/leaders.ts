/**
 * Leadership as seen from outside an instance: whether it leads a namespace
 * and how many rebalance passes it ran, from its `/metrics`; and the moment a
 * new leader runs its first pass after the old one is stopped.
 *
 * @module
 */
import { scrape, sumMetric } from "./prom.ts";
import type { LogLine, ServiceProcess } from "./service.ts";
import { sleep } from "./wait.ts";

/** Reasons a term ends that are not a loss: the leader period's handover, a shutdown. */
const PLANNED_TERM_ENDS = new Set(["leader period over", "The service is shutting down"]);

/** Whether a service log line tells of leadership lost (not handed over, not shut down). */
export function isLeadershipLoss(line: LogLine): boolean {
  return line.msg === "stopped leading namespace" &&
    !PLANNED_TERM_ENDS.has(String(line.fields.reason));
}

/** Whether `service` leads `namespace` now (`sm_namespace_leader`). */
export async function leads(service: ServiceProcess, namespace: string): Promise<boolean> {
  const samples = await scrape(service.httpAddress);
  return sumMetric(samples, "sm_namespace_leader", { namespace }) === 1;
}

/** Rebalance passes `service` ran while leading `namespace` (`sm_rebalance_passes_total`). */
export async function passesOf(service: ServiceProcess, namespace: string): Promise<number> {
  return sumMetric(await scrape(service.httpAddress), "sm_rebalance_passes_total", { namespace });
}

/** The instance among `services` that leads `namespace`, waiting up to `timeoutMs`. */
export async function findLeader(
  services: readonly ServiceProcess[],
  namespace: string,
  timeoutMs = 30_000,
): Promise<ServiceProcess> {
  const until = performance.now() + timeoutMs;
  while (performance.now() < until) {
    for (const s of services) if (s.alive && await leads(s, namespace)) return s;
    await sleep(100);
  }
  throw new Error(`No instance leads ${namespace} after ${timeoutMs} ms`);
}

/** What {@linkcode measureTakeover} saw. */
export interface Takeover {
  /** From the signal to the successor's first pass (its pass counter seen to grow), ms. */
  readonly firstPassMs: number;
  /** From the signal to the successor's "won election" log line (ms precision), ms. */
  readonly wonMs: number;
  /** Time between two polls of the successor's metrics, ms: the resolution. */
  readonly pollMs: number;
}

/**
 * Sends `signal` to `leader` and polls `successor`'s pass counter every
 * `pollMs` until it grows; the time of the first poll that saw it grow counts
 * (an upper bound, late by at most one poll).
 */
export async function measureTakeover(
  leader: ServiceProcess,
  successor: ServiceProcess,
  namespace: string,
  signal: Deno.Signal,
  timeoutMs: number,
  pollMs = 10,
): Promise<Takeover> {
  const before = await passesOf(successor, namespace);
  let wonAt = NaN;
  const stopListening = successor.onLog((line) => {
    if (line.msg === "won election" && Number.isNaN(wonAt)) wonAt = line.ts;
  });
  const sentWall = Date.now();
  const sent = performance.now();
  const stopping = leader.stop(signal);
  let firstPassMs = NaN;
  let polls = 0;
  while (performance.now() - sent < timeoutMs) {
    polls++;
    if (await passesOf(successor, namespace) > before) {
      firstPassMs = performance.now() - sent;
      break;
    }
    await sleep(pollMs);
  }
  stopListening();
  await stopping;
  const elapsed = Number.isNaN(firstPassMs) ? timeoutMs : firstPassMs;
  return { firstPassMs, wonMs: wonAt - sentWall, pollMs: elapsed / Math.max(1, polls) };
}
