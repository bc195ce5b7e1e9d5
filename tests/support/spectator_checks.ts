/**
 * Checks shared by the spectator's integration tests: comparing what a
 * spectator answers with what simulated executors were told.
 *
 * @module
 */
import type { Spectator } from "../../src/client/spectator/mod.ts";
import type { SimExecutor } from "./executors.ts";
import { freePort } from "./ports.ts";

/** Shard → executor id, as the executors' last heartbeat answers say. */
export function heldBy(executors: readonly SimExecutor[]): Map<string, string> {
  const held = new Map<string, string>();
  for (const executor of executors) {
    for (const shard of executor.shards) held.set(shard, executor.id);
  }
  return held;
}

/**
 * Whether `executors` hold shards `"0"`..`shardNum - 1` between them, each
 * once, and `spectator` names the same owner for every one of them.
 */
export function spectatorAgrees(
  spectator: Spectator,
  executors: readonly SimExecutor[],
  shardNum: number,
): boolean {
  const held = heldBy(executors);
  if (held.size !== shardNum) return false;
  if (executors.reduce((n, e) => n + e.shards.length, 0) !== shardNum) return false;
  for (let shard = 0; shard < shardNum; shard++) {
    const key = String(shard);
    if (spectator.ownerOf(key)?.executorId !== held.get(key)) return false;
  }
  return true;
}

/** Shard → executor id, as `spectator` answers for shards `"0"`..`shardNum - 1`. */
export function spectatorOwners(spectator: Spectator, shardNum: number): Map<string, string> {
  const owners = new Map<string, string>();
  for (let shard = 0; shard < shardNum; shard++) {
    const owner = spectator.ownerOf(String(shard));
    if (owner !== undefined) owners.set(String(shard), owner.executorId);
  }
  return owners;
}

/**
 * `yaml` (from `testConfigYaml`) listening on a fixed free loopback port
 * instead of port 0, so a restarted instance comes back on the same address.
 */
export function onFixedPort(yaml: string): { yaml: string; address: string } {
  const address = `127.0.0.1:${freePort()}`;
  if (!yaml.includes("grpcAddress: 127.0.0.1:0")) {
    throw new Error("expected a testConfigYaml configuration with grpcAddress 127.0.0.1:0");
  }
  return { yaml: yaml.replace("grpcAddress: 127.0.0.1:0", `grpcAddress: ${address}`), address };
}
