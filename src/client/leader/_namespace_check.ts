/**
 * Before joining an election: is its namespace a fixed one with one shard?
 * Asked of the service (`ListNamespaces`) so that a wrong namespace is
 * refused before this node could ever lead.
 *
 * @module
 */
import {
  type ListNamespacesResponse__Output,
  ShardDistributorAPIClient,
} from "../../wire/proto.ts";
import { classifyCallError } from "../common/classify.ts";
import { clientCredentials, type ClientTlsOptions } from "../common/credentials.ts";
import { ShardManagerError } from "../common/errors.ts";
import { callUnary } from "../common/unary.ts";

/**
 * The error that refuses `namespace` for a leader selector, or undefined when
 * it is fine or the service could not say (the heartbeat answers are then
 * checked instead). Tries each address until one answers.
 */
export async function namespaceProblem(
  addresses: readonly string[],
  namespace: string,
  tls: ClientTlsOptions,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<ShardManagerError | undefined> {
  const { credentials, options } = clientCredentials(tls);
  for (const address of addresses) {
    const client = new ShardDistributorAPIClient(address, credentials, { ...options });
    try {
      const response = await callUnary<ListNamespacesResponse__Output>(
        client,
        "listNamespaces",
        {},
        { deadlineMs: timeoutMs, ...(signal ? { signal } : {}) },
      );
      const found = response.namespaces.find((n) => n.name === namespace);
      if (found === undefined) return undefined; // the heartbeat names the failure
      const shardNum = Number(found.shardNum ?? 0);
      if (found.type === "fixed" && shardNum === 1) return undefined;
      return invalidLeaderNamespace(namespace, `is ${found.type} with shardNum ${shardNum}`);
    } catch (error) {
      const failure = classifyCallError(error, { address, namespace, operation: "ListNamespaces" });
      if (failure.code === "NOT_GRPC_ENDPOINT") return failure;
      // Refused or unreachable: leave it to the heartbeats, which say it again.
    } finally {
      client.close();
    }
  }
  return undefined;
}

/**
 * The refusal of a namespace that is not `{ type: fixed, shardNum: 1 }`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { invalidLeaderNamespace } from "./_namespace_check.ts";
 *
 * const error = invalidLeaderNamespace("cron", "is fixed with shardNum 16");
 * assert.equal(error.code, "INVALID_NAMESPACE");
 * assert.match(error.message, /needs a fixed namespace with shardNum: 1/);
 * ```
 */
export function invalidLeaderNamespace(namespace: string, what: string): ShardManagerError {
  return new ShardManagerError(
    `Namespace "${namespace}" ${what}: a leader selector needs a fixed namespace with ` +
      "shardNum: 1 (create one for the election, e.g. with smctl namespace create -f FILE)",
    { code: "INVALID_NAMESPACE" },
  );
}
