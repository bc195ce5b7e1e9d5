/**
 * Every measurement of the suite, in the order of issue 5.
 *
 * @module
 */
import type { Suite } from "../lib/result.ts";
import { balanceQuality } from "./balance_quality.ts";
import { churn } from "./churn.ts";
import { executorsPerNamespace } from "./executors_per_namespace.ts";
import { failover } from "./failover.ts";
import { handover } from "./handover.ts";
import { heartbeatIngestion } from "./heartbeat_ingestion.ts";
import { planner } from "./planner.ts";
import { propagation } from "./propagation.ts";
import { ranges } from "./ranges.ts";
import { routingThroughput } from "./routing_throughput.ts";
import { shardsPerNamespace } from "./shards_per_namespace.ts";
import { upstreamLimit } from "./upstream_limit.ts";

/** The suites, in report order. */
export const SUITES: readonly Suite[] = [
  executorsPerNamespace,
  shardsPerNamespace,
  planner,
  propagation,
  failover,
  routingThroughput,
  heartbeatIngestion,
  balanceQuality,
  upstreamLimit,
  churn,
  handover,
  ranges,
];
