/**
 * The standard gRPC health service (`grpc.health.v1.Health`), fed by the
 * instance's `HealthMonitor`: SERVING while the store answers and every
 * namespace cache follows it, NOT_SERVING otherwise. The overall service ("")
 * and each Shard Distributor service report the same status. Server reflection
 * describes it from {@linkcode healthPackageDefinition}.
 *
 * @module
 */
import type * as grpc from "@grpc/grpc-js";
import { loadSync, type PackageDefinition } from "@grpc/proto-loader";
import { HealthImplementation, protoPath, type ServingStatus } from "grpc-health-check";
import type { Health, HealthStatus } from "../../service/mod.ts";

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
export function addHealthService(server: grpc.Server, monitor: Health): void {
  const initial = servingStatus(monitor.status);
  const health = new HealthImplementation(
    Object.fromEntries(HEALTH_SERVICES.map((name) => [name, initial])),
  );
  monitor.onChange((status) => {
    for (const name of HEALTH_SERVICES) health.setStatus(name, servingStatus(status));
  });
  health.addToServer(server);
}

/**
 * The definition of `grpc.health.v1` (the `.proto` file `grpc-health-check`
 * ships and serves), so that server reflection can list and describe it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { healthPackageDefinition } from "./health_service.ts";
 *
 * assert.ok("grpc.health.v1.Health" in healthPackageDefinition());
 * ```
 */
export function healthPackageDefinition(): PackageDefinition {
  return loadSync(protoPath);
}
