/**
 * Which instance leads each namespace, asked over gRPC (`ListLeaders`): the
 * clock faults report whether the instance with the wrong clock led while
 * it had it.
 *
 * @module
 */
import { call, connect } from "../support/grpc_clients.ts";
import type { ListLeadersResponse__Output } from "../../src/wire/proto.ts";

/**
 * Namespace → the instance id of its leader, as the instance at `address`
 * knows it; rejects when it does not answer within 2 s.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { leadersAt } from "./leaders.ts";
 *
 * await assert.rejects(leadersAt("127.0.0.1:1")); // nothing listens there
 * ```
 */
export async function leadersAt(address: string): Promise<Map<string, string>> {
  const clients = connect(address);
  try {
    const answer = await call<unknown, ListLeadersResponse__Output>(
      clients.api,
      "listLeaders",
      {},
      2_000,
    );
    return new Map(answer.leaders.map((l) => [l.namespace, l.instanceId]));
  } finally {
    clients.close();
  }
}

/**
 * Polls every second, until `signal` aborts, which namespaces an instance
 * whose id starts with `instancePrefix` leads; resolves with them, sorted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { watchLeadership } from "./leaders.ts";
 *
 * assert.deepEqual(await watchLeadership([], "service-0.", AbortSignal.abort()), []);
 * ```
 */
export async function watchLeadership(
  addresses: readonly string[],
  instancePrefix: string,
  signal: AbortSignal,
): Promise<string[]> {
  const led = new Set<string>();
  while (!signal.aborted) {
    for (const address of addresses) {
      try {
        for (const [ns, id] of await leadersAt(address)) {
          if (id.startsWith(instancePrefix)) led.add(ns);
        }
        break;
      } catch { /* that instance is restarting: ask another */ }
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 1_000);
      signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
    });
  }
  return [...led].sort();
}
