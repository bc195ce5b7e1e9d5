/**
 * The first stage of heartbeat ingestion: every raw heartbeat is validated
 * here, once, and nowhere else (the transport only decodes).
 *
 * @module
 */
import { DEFAULT_REQUEST_LIMITS, type RequestLimits } from "../limits/request_limits.ts";
import type { IngestNamespace, NamespaceLookup, RawSubmission, Submission } from "./submission.ts";
import type { ReportsMemo } from "./reports_memo.ts";
import { validateHeartbeat } from "./validate_heartbeat.ts";

/** Options of {@linkcode ValidateStream}. */
export interface ValidateStreamOptions {
  /** Request limits. @default {DEFAULT_REQUEST_LIMITS} */
  readonly limits?: RequestLimits;
  /**
   * Validated reports by their wire bytes: a heartbeat whose bytes match is
   * neither decoded nor validated again. @default {every heartbeat validated}
   */
  readonly memo?: ReportsMemo;
}

/**
 * Validates each raw heartbeat with {@linkcode validateHeartbeat} (namespace
 * included: an unknown one fails with `NamespaceNotFoundError`) and passes on
 * the valid ones with their namespace; an invalid one is rejected at once with
 * the validation error and goes no further.
 *
 * It holds nothing back: validation is synchronous, and the stage downstream
 * (`BatchQueue`) never applies backpressure.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ValidateStream } from "./validate_stream.ts";
 *
 * const ns = { executor: () => undefined, recordEvery: false };
 * const errors: unknown[] = [];
 * const raw = (namespace: string) => ({
 *   raw: { namespace, executorId: "e1", status: "ACTIVE", reports: {}, metadata: {} },
 *   resolve: () => {},
 *   reject: (error: unknown) => errors.push(error),
 * });
 * const valid = await Array.fromAsync(
 *   ReadableStream.from([raw("ns"), raw("elsewhere")])
 *     .pipeThrough(new ValidateStream((name) => name === "ns" ? ns : undefined)),
 * );
 * assert.deepEqual(valid.map((s) => s.heartbeat.status), ["ACTIVE"]);
 * assert.match(String(errors[0]), /elsewhere/);
 * ```
 */
export class ValidateStream extends TransformStream<RawSubmission, Submission> {
  /** Looks namespaces up with `namespaces`. */
  constructor(namespaces: NamespaceLookup, options: ValidateStreamOptions = {}) {
    const limits = options.limits ?? DEFAULT_REQUEST_LIMITS;
    const { memo } = options;
    super({
      transform(pending, controller) {
        const found: { namespace: IngestNamespace | undefined } = { namespace: undefined };
        const knownNamespace = (name: string) => (found.namespace = namespaces(name)) !== undefined;
        const { raw } = pending, bytes = raw.reportsBytes;
        let submission: Submission;
        try {
          const reports = bytes && memo?.lookup(raw.namespace, raw.executorId, bytes);
          const heartbeat = validateHeartbeat(raw, limits, {
            knownNamespace,
            ...(reports ? { reports } : {}),
          });
          const namespace = found.namespace;
          if (!namespace) throw new TypeError("The namespace lookup was not consulted");
          if (bytes && !reports) {
            memo?.remember(raw.namespace, raw.executorId, bytes, heartbeat.reports);
          }
          namespace.heard?.(heartbeat);
          submission = {
            heartbeat,
            namespace,
            resolve: pending.resolve,
            reject: pending.reject,
            ...(bytes ? { reportsBytes: bytes } : {}),
          };
        } catch (error) {
          return pending.reject(error);
        }
        controller.enqueue(submission);
      },
    });
  }
}
