/**
 * Small helpers over etcd's raw transaction API.
 *
 * @module
 */
import { plainStoreError } from "./plain_error.ts";
import { Buffer } from "node:buffer";
import type { Etcd3, ICompare, IRequestOp, ITxnResponse } from "etcd3";
import { StoreUnavailableError } from "../../core/errors.ts";

/** etcd's default `--max-txn-ops`: operations one transaction may hold. */
export const MAX_TXN_OPS = 128;

/** A put operation. */
export function put(key: string, value: string): IRequestOp {
  return { request_put: { key: Buffer.from(key), value: Buffer.from(value) } };
}

/** A delete of one key, or of the range [key, end). */
export function del(key: string, end?: string): IRequestOp {
  return {
    request_delete_range: end === undefined
      ? { key: Buffer.from(key) }
      : { key: Buffer.from(key), range_end: Buffer.from(end) },
  };
}

/** A read of one key. */
export function get(key: string): IRequestOp {
  return { request_range: { key: Buffer.from(key) } };
}

/** Compares a key's mod revision (0 when absent). */
export function modIs(key: string, revision: number): ICompare {
  return { key: Buffer.from(key), target: "Mod", result: "Equal", mod_revision: revision };
}

/** Compares a key's value (fails when the key is absent). */
export function valueIs(key: string, value: string, result: "Equal" | "Less" = "Equal"): ICompare {
  return { key: Buffer.from(key), target: "Value", result, value: Buffer.from(value) };
}

/** Requires that a key does not exist. */
export function absent(key: string): ICompare {
  return { key: Buffer.from(key), target: "Create", result: "Equal", create_revision: 0 };
}

/** Runs a transaction, turning transport failures into `StoreUnavailableError`. */
export async function txn(
  client: Etcd3,
  compare: ICompare[],
  success: IRequestOp[],
  failure: IRequestOp[] = [],
  timeoutMs?: number,
): Promise<ITxnResponse> {
  try {
    const request = { compare, success, failure };
    return await (timeoutMs === undefined
      ? client.kv.txn(request)
      : client.kv.txn(request, { deadline: Date.now() + timeoutMs }));
  } catch (cause) {
    throw new StoreUnavailableError(`etcd transaction failed: ${errorText(cause)}`, { cause });
  }
}

/**
 * Runs unconditional operations in as few transactions as etcd allows; returns
 * the last revision. `timeoutMs` replaces the client's call deadline.
 */
export async function writeAll(
  client: Etcd3,
  ops: readonly IRequestOp[],
  timeoutMs?: number,
): Promise<number> {
  const chunks: IRequestOp[][] = [];
  for (let i = 0; i < ops.length; i += MAX_TXN_OPS) chunks.push(ops.slice(i, i + MAX_TXN_OPS));
  const results = await Promise.all(chunks.map((chunk) => txn(client, [], chunk, [], timeoutMs)));
  return Math.max(0, ...results.map((r) => Number(r.header.revision)));
}

/** A readable message from anything thrown, in plain words (see plain_error.ts). */
export function errorText(error: unknown): string {
  return plainStoreError(error);
}
