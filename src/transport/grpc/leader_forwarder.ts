/**
 * Calls only the leader can carry out (moves, lifting the mass-loss brake, slice edits), forwarded by an instance that
 * does not lead the namespace to the one that does, at the gRPC address the
 * leader advertised in its claim. A forwarded call carries a marker so that
 * it is never forwarded again (two instances that both think the other leads
 * answer NotLeader instead of bouncing the call), and the caller's
 * authorization header, so the leader authorizes the same identity.
 *
 * @module
 */
import * as grpc from "@grpc/grpc-js";
import { NotLeaderError } from "../../core/errors.ts";
import {
  type ChangeSliceRequest,
  type ChangeSliceResponse__Output,
  type LiftBrakeRequest,
  type LiftBrakeResponse__Output,
  type MoveShardsRequest,
  type MoveShardsResponse__Output,
  ShardDistributorAPIClient,
} from "../../wire/proto.ts";

/** Metadata key marking a call as forwarded once. */
export const FORWARDED_HEADER = "x-shard-manager-forwarded";

/** The leader's own failure of a forwarded call: answered to the caller unchanged. */
export class ForwardedFailure extends Error {
  /** The leader's status code. */
  readonly code: grpc.status;
  /** The leader's status message. */
  readonly details: string;
  /** The leader's trailers (with any error details). */
  readonly metadata: grpc.Metadata;
  /** Wraps the leader's error. */
  constructor(error: grpc.ServiceError) {
    super(error.details, { cause: error });
    this.name = "ForwardedFailure";
    this.code = error.code;
    this.details = error.details;
    this.metadata = error.metadata ?? new grpc.Metadata();
  }
}

/**
 * Runs `here`; when it fails because this instance does not lead the
 * namespace (`NotLeaderError`), answers with `forward()` instead, unless that
 * is undefined (no leader known, or the call was forwarded already: the
 * error stands).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NotLeaderError } from "../../core/errors.ts";
 * import { atLeader } from "./leader_forwarder.ts";
 *
 * const here = () => Promise.reject(new NotLeaderError("ns", "i-2", "10.0.0.2:7833"));
 * assert.equal(await atLeader(here, () => Promise.resolve("from the leader")), "from the leader");
 * await assert.rejects(atLeader(here, () => undefined), NotLeaderError);
 * ```
 */
export async function atLeader<T>(
  here: () => Promise<T>,
  forward: () => Promise<T> | undefined,
): Promise<T> {
  try {
    return await here();
  } catch (error) {
    const forwarded = error instanceof NotLeaderError ? forward() : undefined;
    if (forwarded === undefined) throw error;
    return await forwarded;
  }
}

/** Forwards calls to a namespace's leader. */
export class LeaderForwarder {
  #leaderAddress: (namespace: string) => string | undefined;
  #clients = new Map<string, ShardDistributorAPIClient>();
  #deadlineMs: number;

  /** Finds leaders with `leaderAddress` (undefined when unknown or this instance). */
  constructor(
    leaderAddress: (namespace: string) => string | undefined,
    options: { readonly deadlineMs?: number } = {},
  ) {
    this.#leaderAddress = leaderAddress;
    this.#deadlineMs = options.deadlineMs ?? 30_000;
  }

  /**
   * Forwards a move to the leader; undefined when it cannot be forwarded (no
   * known leader address, or the call was forwarded already).
   */
  moveShards(
    request: MoveShardsRequest,
    incoming: grpc.Metadata,
    signal: AbortSignal,
  ): Promise<MoveShardsResponse__Output> | undefined {
    return this.#forward(
      request.namespace,
      incoming,
      signal,
      (api, metadata, options, done) =>
        api.moveShards(request, metadata, options, (error, response) => done(error, response)),
    );
  }

  /** Forwards a slice edit to the leader; undefined as for {@linkcode moveShards}. */
  changeSlice(
    request: ChangeSliceRequest,
    incoming: grpc.Metadata,
    signal: AbortSignal,
  ): Promise<ChangeSliceResponse__Output> | undefined {
    return this.#forward(
      request.namespace,
      incoming,
      signal,
      (api, metadata, options, done) =>
        api.changeSlice(request, metadata, options, (error, response) => done(error, response)),
    );
  }

  /** Forwards lifting the mass-loss brake to the leader; undefined as for {@linkcode moveShards}. */
  liftBrake(
    request: LiftBrakeRequest,
    incoming: grpc.Metadata,
    signal: AbortSignal,
  ): Promise<LiftBrakeResponse__Output> | undefined {
    return this.#forward(
      request.namespace,
      incoming,
      signal,
      (api, metadata, options, done) =>
        api.liftBrake(request, metadata, options, (error, response) => done(error, response)),
    );
  }

  #forward<Res>(
    namespace: string | undefined,
    incoming: grpc.Metadata,
    signal: AbortSignal,
    start: (
      api: ShardDistributorAPIClient,
      metadata: grpc.Metadata,
      options: grpc.CallOptions,
      done: (error: grpc.ServiceError | null, response: Res | undefined) => void,
    ) => grpc.ClientUnaryCall,
  ): Promise<Res> | undefined {
    if (incoming.get(FORWARDED_HEADER).length > 0) return undefined;
    const address = this.#leaderAddress(namespace ?? "");
    if (address === undefined) return undefined;
    let client = this.#clients.get(address);
    if (!client) {
      client = new ShardDistributorAPIClient(address, grpc.credentials.createInsecure());
      this.#clients.set(address, client);
    }
    const metadata = new grpc.Metadata();
    metadata.set(FORWARDED_HEADER, "1");
    for (const value of incoming.get("authorization")) metadata.add("authorization", value);
    const api = client;
    return new Promise((resolve, reject) => {
      const call = start(
        api,
        metadata,
        { deadline: Date.now() + this.#deadlineMs },
        (error, response) => {
          signal.removeEventListener("abort", cancel);
          if (error) reject(new ForwardedFailure(error));
          else resolve(response as Res);
        },
      );
      const cancel = () => call.cancel();
      signal.addEventListener("abort", cancel, { once: true });
    });
  }

  /** Closes the clients opened. */
  close(): void {
    for (const client of this.#clients.values()) client.close();
    this.#clients.clear();
  }
}
