/**
 * Operator actions from the page: drain and undrain executors (by id or by a
 * metadata selector) and shards. Bodies are JSON; this module checks their
 * shape, then calls the same service methods as the gRPC API, so the same
 * validation and errors apply.
 *
 * @module
 */
import { type DrainTarget, validateDrainTarget } from "../../../core/executor_drain.ts";
import { InvalidArgumentError } from "../../../core/errors.ts";
import type { ExecutorDrains } from "../../../service/mod.ts";
import type { NamespaceOperations } from "../../../service/mod.ts";
import type { ActionKind, ActionTarget } from "./paths.ts";
import { parseJson } from "../../../core/parse_json.ts";

/** Largest action body accepted, in bytes. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The service calls actions use. */
export interface ActionBackend {
  /** Shard drains. */
  readonly operations: Pick<NamespaceOperations, "drainShards" | "undrainShards">;
  /** Executor drains. */
  readonly executorDrains: Pick<ExecutorDrains, "drain" | "undrain">;
}

/** A parsed executor drain body. */
export interface ExecutorActionBody {
  /** Whom to drain or undrain. */
  readonly target: DrainTarget;
  /** Free text kept with a drain. */
  readonly reason: string;
}

/**
 * Parses `{executorId}` or `{selector: {k: v}}`, with an optional `reason`.
 * Throws `InvalidArgumentError`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseExecutorBody } from "./actions.ts";
 *
 * const { target } = parseExecutorBody({ selector: { zone: "b" }, reason: "maintenance" });
 * assert.equal(target.selector?.zone, "b");
 * ```
 */
export function parseExecutorBody(body: unknown): ExecutorActionBody {
  const object = asObject(body);
  const { executorId = "", selector = {}, reason = "" } = object;
  if (typeof executorId !== "string") throw invalid("executorId", "must be a string", executorId);
  if (typeof reason !== "string") throw invalid("reason", "must be a string", reason);
  if (typeof selector !== "object" || selector === null || Array.isArray(selector)) {
    throw invalid("selector", "must be an object of strings", selector);
  }
  for (const [key, value] of Object.entries(selector)) {
    if (typeof value !== "string") {
      throw invalid(`selector[${JSON.stringify(key)}]`, "must be a string", value);
    }
  }
  const target = validateDrainTarget(executorId, selector as Record<string, string>);
  return { target, reason };
}

/**
 * Parses `{shardKeys: ["1", "2"]}`. Throws `InvalidArgumentError`; the
 * service checks the keys themselves.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseShardBody } from "./actions.ts";
 *
 * assert.equal(parseShardBody({ shardKeys: ["7"] })[0], "7");
 * ```
 */
export function parseShardBody(body: unknown): string[] {
  const { shardKeys } = asObject(body);
  if (!Array.isArray(shardKeys)) {
    throw invalid("shardKeys", "must be an array of strings", shardKeys);
  }
  for (const [i, key] of shardKeys.entries()) {
    if (typeof key !== "string") throw invalid(`shardKeys[${i}]`, "must be a string", key);
  }
  return shardKeys as string[];
}

/**
 * Reads a JSON body of at most {@linkcode MAX_BODY_BYTES}. Throws
 * `InvalidArgumentError` when it is too large or not JSON.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_BODY_BYTES) {
    throw new InvalidArgumentError("body", `is ${declared} bytes; at most ${MAX_BODY_BYTES}`);
  }
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.length > MAX_BODY_BYTES) {
    throw new InvalidArgumentError("body", `is ${bytes.length} bytes; at most ${MAX_BODY_BYTES}`);
  }
  try {
    return parseJson(new TextDecoder().decode(bytes));
  } catch (error) {
    throw new InvalidArgumentError("body", `is not JSON: ${(error as Error).message}`);
  }
}

/** One action to run. */
export interface ActionRequest {
  /** The namespace acted on. */
  readonly namespace: string;
  /** Executors or shards. */
  readonly target: ActionTarget;
  /** Drain or undrain. */
  readonly action: ActionKind;
  /** The parsed JSON body. */
  readonly body: unknown;
}

/**
 * Runs one action and returns what to answer: `{drain, matched}` /
 * `{removed, stillDrained}` for executors, `{drainedShardKeys}` /
 * `{undrainedShardKeys}` for shards.
 */
export async function runAction(
  backend: ActionBackend,
  request: ActionRequest,
): Promise<Record<string, unknown>> {
  const { namespace, target, action, body } = request;
  if (target === "shards") {
    const keys = parseShardBody(body);
    if (action === "drain") {
      return { drainedShardKeys: await backend.operations.drainShards(namespace, keys) };
    }
    return { undrainedShardKeys: await backend.operations.undrainShards(namespace, keys) };
  }
  const { target: drainTarget, reason } = parseExecutorBody(body);
  if (action === "drain") {
    // `force: true` in the body drains past the disruption budget, as --force does.
    const force = asObject(body).force === true;
    const { drain, matched } = await backend.executorDrains.drain(
      namespace,
      drainTarget,
      reason,
      { force },
    );
    return { drain, matched };
  }
  const { removed, stillDrained } = await backend.executorDrains.undrain(namespace, drainTarget);
  return { removed: removed ?? null, stillDrained };
}

function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalid("body", "must be a JSON object", body);
  }
  return body as Record<string, unknown>;
}

function invalid(field: string, problem: string, value: unknown): InvalidArgumentError {
  const shown = JSON.stringify(value)?.slice(0, 100) ?? String(value);
  return new InvalidArgumentError(field, `${problem}, got ${shown}`);
}
