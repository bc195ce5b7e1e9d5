/**
 * The one place that decides which of the transport's ways around grpc-js
 * run on a bound server: it asks `_runtime_internals.ts` what this grpc-js
 * and this Deno offer, logs once what is missing (those calls then go through
 * plain grpc-js), and installs the rest:
 *
 * - the Heartbeat lane (heartbeat_lane.ts), when wanted: its one switch is
 *   the server's `heartbeatLane` option (off with an authorizer);
 * - the closed-stream guard (closed_stream_guard.ts);
 * - the write coalescer (write_coalescer.ts);
 * - the read moderator (read_moderator.ts), when a read window is set.
 *
 * @module
 */
import type { Clock } from "../../../core/clock.ts";
import type { Logger } from "../../../core/logger.ts";
import { checkRuntimeInternals } from "./_runtime_internals.ts";
import { installClosedStreamGuard } from "./closed_stream_guard.ts";
import {
  HeartbeatLane,
  type HeartbeatLaneOptions,
  installHeartbeatLane,
} from "./heartbeat_lane.ts";
import { installReadModerator, ReadModerator } from "./read_moderator.ts";
import { installWriteCoalescer } from "./write_coalescer.ts";

/** Options of {@linkcode installFastPath}. */
export interface FastPathOptions {
  /** The Heartbeat lane's options; undefined leaves every Heartbeat call to grpc-js. */
  readonly lane?: HeartbeatLaneOptions | undefined;
  /** A busy plaintext connection reads at most once per this many ms; 0 leaves reads alone. */
  readonly readWindowMs: number;
  /** Whose timers the read moderator uses. */
  readonly clock: Clock;
  /** Where what is missing is said. */
  readonly logger: Logger;
}

/** What {@linkcode installFastPath} installed that needs stopping. */
export interface FastPath {
  /** Stops the read moderator's timers (if it runs). */
  close(): void;
}

/**
 * Installs on the bound grpc-js `server` every workaround this runtime
 * supports, of those `options` ask for; never throws for a missing internal.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemClock } from "../../../core/clock.ts";
 * import type { Logger } from "../../../core/logger.ts";
 * import { installFastPath } from "./install_fast_path.ts";
 *
 * const said: string[] = [];
 * const logger = { warn: (message: string) => said.push(message) } as unknown as Logger;
 * // Not a grpc-js server: nothing is installed, and that is said once.
 * const fast = await installFastPath({}, { readWindowMs: 0, clock: systemClock, logger });
 * assert.equal(said.length, 1);
 * assert.match(said[0]!, /every call goes through plain grpc-js/);
 * fast.close();
 * ```
 */
export async function installFastPath(server: object, options: FastPathOptions): Promise<FastPath> {
  const { logger, clock } = options;
  const windowMs = options.readWindowMs;
  const support = await checkRuntimeInternals(server, {
    heartbeatLane: options.lane !== undefined,
    readModerator: windowMs > 0,
  });
  for (const sentence of support.missing) logger.warn(sentence);
  if (options.lane && support.heartbeatLane) {
    installHeartbeatLane(server, new HeartbeatLane(options.lane));
  }
  if (support.closedStreamGuard) {
    installClosedStreamGuard(
      server,
      () => logger.debug("a call arrived on a stream its client had already closed; not answered"),
    );
  }
  /** A warning said once, however many connections the runtime leaves unimproved. */
  const warnOnce = (message: string) => {
    let said = false;
    return () => {
      if (said) return;
      said = true;
      logger.warn(message);
    };
  };
  if (support.writeCoalescer) {
    installWriteCoalescer(
      server,
      warnOnce(
        "this Deno's HTTP/2 sessions keep their socket elsewhere: answers are written frame by " +
          "frame, which costs the server CPU (see src/transport/grpc/fast_path/write_coalescer.ts)",
      ),
    );
  }
  const moderator = windowMs > 0 && support.readModerator
    ? new ReadModerator(windowMs, clock)
    : undefined;
  if (moderator) {
    installReadModerator(
      server,
      moderator,
      warnOnce(
        "this Deno's sockets have no native handle to pause: busy connections are read call by " +
          "call, which costs the server CPU (see src/transport/grpc/fast_path/read_moderator.ts)",
      ),
    );
  }
  return { close: () => moderator?.close() };
}
