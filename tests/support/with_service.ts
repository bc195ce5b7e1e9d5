/**
 * One in-process service instance on a fresh etcd, with connected gRPC
 * clients, for the length of a test body.
 *
 * @module
 */
import type { RunningInstance } from "../../src/app.ts";
import { startEtcd, uniquePrefix } from "./etcd.ts";
import { type Clients, connect } from "./grpc_clients.ts";
import { startInProcess, testConfigYaml } from "./service.ts";

/**
 * Runs `run` against an instance serving `namespaces` (keys under a unique
 * prefix made from `prefix`), then closes the clients and stops the
 * instance and etcd, whatever `run` did.
 */
export async function withService(
  prefix: string,
  namespaces: readonly Record<string, unknown>[],
  run: (clients: Clients, instance: RunningInstance) => Promise<void>,
): Promise<void> {
  await using etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix(prefix),
    namespaces,
  }));
  const clients = connect(instance.server.address);
  try {
    await run(clients, instance);
  } finally {
    clients.close();
    await instance.stop();
  }
}
