/**
 * Operator calls as the history sees them: who made each one (the identity
 * authorization established, or the peer's address without security), run
 * as that operator (see service/operator_identity.ts), and each refusal
 * handed to the audit.
 *
 * @module
 */
import type * as grpc from "@grpc/grpc-js";
import { status as Status } from "@grpc/grpc-js";
import type { Refusal } from "../../service/mod.ts";
import { NAMESPACE_ADMIN_METHODS, OPERATOR_METHODS } from "../../core/operator_methods.ts";

/** The calls that change a namespace on an operator's behalf. */
export const AUDITED_METHODS: ReadonlySet<string> = new Set([
  ...OPERATOR_METHODS,
  ...NAMESPACE_ADMIN_METHODS,
]);

/** Statuses that mean "refused" (the call was understood and said no), not "failed". */
const REFUSALS: ReadonlySet<grpc.status> = new Set([
  Status.FAILED_PRECONDITION,
  Status.INVALID_ARGUMENT,
  Status.PERMISSION_DENIED,
  Status.UNAUTHENTICATED,
  Status.ALREADY_EXISTS,
  Status.NOT_FOUND,
  Status.OUT_OF_RANGE,
  Status.RESOURCE_EXHAUSTED,
]);

/** Where refusals go. */
export interface RefusalSink {
  /** Records one refused call. */
  refused(refusal: Refusal): void;
}

const principals = new WeakMap<object, string>();

/** Remembers the identity authorization found for `call`. */
export function rememberCaller(call: object, principal: string): void {
  principals.set(call, principal);
}

/**
 * Who made `call`: the principal authorization found, else `anonymous`
 * with the peer's address.
 */
export function callerOf(call: Pick<grpc.ServerUnaryCall<unknown, unknown>, "getPeer">): string {
  const principal = principals.get(call);
  if (principal !== undefined) return principal;
  let peer = "unknown peer";
  try {
    peer = call.getPeer();
  } catch {
    // A call whose socket is gone has no peer left to name.
  }
  return `anonymous (${peer})`;
}

/** Hands a refused call of an audited method to `sink`. */
export function auditRefusal(
  sink: RefusalSink | undefined,
  method: string,
  request: unknown,
  actor: string,
  error: { readonly code: grpc.status; readonly details: string },
): void {
  if (!sink || !AUDITED_METHODS.has(method) || !REFUSALS.has(error.code)) return;
  const namespace = (request as { namespace?: unknown } | undefined)?.namespace;
  if (typeof namespace !== "string" || namespace === "") return;
  sink.refused({ method, namespace, actor, reason: error.details });
}
