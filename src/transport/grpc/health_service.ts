/**
 * The standard gRPC health service (`grpc.health.v1.Health`), fed by the
 * instance's `HealthMonitor`: SERVING while the store answers and every
 * namespace cache follows it, NOT_SERVING otherwise. The overall service ("")
 * and each Shard Distributor service report the same status.
 *
 * @module
 */
import type * as grpc from "@grpc/grpc-js";
import { HealthImplementation, type ServingStatus } from "grpc-health-check";
import type { HealthMonitor, HealthStatus } from "../../service/health_monitor.ts";

/** Service names the health service answers for. */
export const HEALTH_SERVICES: readonly string[] = [
  "",
  "uber.cadence.sharddistributor.v1.ShardDistributorAPI",
  "uber.cadence.sharddistributor.v1.ShardDistributorExecutorAPI",
];

function servingStatus(status: HealthStatus): ServingStatus {
  return status.ready ? "SERVING" : "NOT_SERVING";
}

/** Adds the health service to `server`, following `monitor`. */
export function addHealthService(server: grpc.Server, monitor: HealthMonitor): void {
  const initial = servingStatus(monitor.status);
  const health = new HealthImplementation(
    Object.fromEntries(HEALTH_SERVICES.map((name) => [name, initial])),
  );
  monitor.onChange((status) => {
    for (const name of HEALTH_SERVICES) health.setStatus(name, servingStatus(status));
  });
  health.addToServer(server);
}
