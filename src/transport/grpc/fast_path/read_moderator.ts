/**
 * Read moderation for busy connections: a connection that reads again
 * within `windowMs` of its previous read stops reading until the
 * moderator's next tick, so that the calls arriving meanwhile wait in the
 * kernel and are then read, parsed and answered together.
 *
 * Why: when many calls share a few HTTP/2 connections (a service mesh's
 * pooled upstream connections, a proxy, the benchmark's simulated fleet) and
 * arrive spread out, each call is read alone, and the server pays a socket
 * read, `node:http2`'s per-read work, a turn of the event loop and a socket
 * write for it alone. Read in batches, those costs are shared: in single
 * steps of 30,000 and 40,000 executors (3,000 and 4,000 heartbeats a second
 * over 8 connections) the instance's CPU fell by about an eighth
 * (bench/limits.md, "Issue 17, tenth step"). Like a network card's interrupt
 * moderation, it costs a call at most one window of extra latency, and only
 * on a connection that is already busy: a connection that reads less often
 * than once per window (an executor with its own connection heartbeats once
 * every few seconds) is never paused, and neither is bulk traffic (a read of
 * {@linkcode BULK_BYTES} or more, or as much written since the previous read,
 * and every read for one window after: a large answer's pace is set by the
 * flow-control updates the peer sends, and pausing their reads slowed a new
 * spectator's 1,000,000-shard picture from 0.6 to 1.6 s before this rule).
 *
 * It is off unless turned on (`SM_READ_WINDOW_MS`, docs/operations.md):
 * the benchmark run that found the flow-control problem is the only full
 * one it has had; with the bulk rule it waits for another before it is on
 * by default.
 *
 * Paused connections are resumed together, by one timer, so their batches
 * are read in the same turn. Pausing stops the socket's native reads
 * (`socket._handle.readStop()`), not just its `data` events: that is what
 * lets the kernel gather the bytes. A runtime whose sockets have no such
 * handle is left as it is (`watch` returns false); `_runtime_internals.ts`
 * finds the handle, and checks at start that this runtime has it.
 *
 * @module
 */
import { type Clock, startTimer, systemClock } from "../../../core/clock.ts";
import {
  http2ServersOf,
  type NativeReader,
  nativeReader,
  sessionSocket,
} from "./_runtime_internals.ts";

/** The window `SM_READ_WINDOW_MS=on` means, ms. */
export const DEFAULT_READ_WINDOW_MS = 10;

/**
 * A read this large, or this much written since the previous read, is bulk
 * traffic: it and the connection's reads for one window after it are not
 * paused.
 */
export const BULK_BYTES = 16 * 1024;

/** The parts of a `net.Socket` the moderator uses. */
interface ModeratedSocket {
  readonly destroyed: boolean;
  readonly bytesWritten?: number;
  prependListener(event: "data", listener: (chunk: { readonly length: number }) => void): unknown;
  once(event: "close", listener: () => void): unknown;
}

function isSocket(value: unknown): value is ModeratedSocket {
  const socket = value as Partial<ModeratedSocket> | null | undefined;
  return typeof socket?.prependListener === "function" && typeof socket.once === "function";
}

/** Pauses busy connections' reads and resumes them together once per window. */
export class ReadModerator {
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #clock: Clock;
  /** Paused sockets and their native handles. */
  readonly #paused = new Map<ModeratedSocket, NativeReader>();
  #resume: (() => void) | undefined;
  #pauses = 0;
  #closed = false;

  /**
   * A moderator pausing for up to `windowMs` (a positive number of
   * milliseconds) of `time`: a {@linkcode Clock} (its monotonic time and
   * timers), or a monotonic time source alone, with timers on
   * {@linkcode systemClock}. @default {systemClock}
   */
  constructor(windowMs: number, time: Clock | (() => number) = systemClock) {
    if (!(windowMs > 0) || !Number.isFinite(windowMs)) {
      throw new RangeError(`read window must be a positive number of ms, got ${windowMs}`);
    }
    this.#windowMs = windowMs;
    this.#clock = typeof time === "function" ? systemClock : time;
    this.#now = typeof time === "function" ? time : () => this.#clock.monotonic();
  }

  /** How many times a connection was paused so far. */
  get pauses(): number {
    return this.#pauses;
  }

  /** Connections paused now. */
  get paused(): number {
    return this.#paused.size;
  }

  /**
   * Moderates `socket`'s reads from now on. Returns false, changing nothing,
   * when the socket has no native handle whose reads can be stopped.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { ReadModerator } from "./read_moderator.ts";
   *
   * const moderator = new ReadModerator(10);
   * assert.equal(moderator.watch({}), false); // not a socket of this runtime
   * moderator.close();
   * ```
   */
  watch(socket: unknown): boolean {
    if (!isSocket(socket)) return false;
    const handle = nativeReader(socket);
    if (handle === undefined) return false;
    let last = -Infinity;
    let bulkUntil = -Infinity;
    let written = socket.bytesWritten ?? 0;
    socket.prependListener("data", (chunk: { readonly length: number }) => {
      const now = this.#now();
      const sent = (socket.bytesWritten ?? 0) - written;
      written += sent;
      // Bulk traffic is not paused, for a window after it was last seen: a large read is a
      // batch already, and a connection that wrote a lot since its last read is sending a
      // large answer, whose pace is set by the peer's flow-control updates (which may come
      // in two reads close together, the stream's and the connection's).
      if (chunk.length >= BULK_BYTES || sent >= BULK_BYTES) bulkUntil = now + this.#windowMs;
      else if (now >= bulkUntil && now - last < this.#windowMs) this.#pause(socket, handle);
      last = now;
    });
    socket.once("close", () => this.#paused.delete(socket));
    return true;
  }

  #pause(socket: ModeratedSocket, handle: NativeReader): void {
    if (this.#closed || this.#paused.has(socket) || socket.destroyed) return;
    handle.readStop();
    this.#paused.set(socket, handle);
    this.#pauses++;
    this.#resume ??= startTimer(this.#clock, this.#windowMs, () => this.#resumeAll());
  }

  #resumeAll(): void {
    this.#resume = undefined;
    const paused = [...this.#paused];
    this.#paused.clear();
    // Every paused socket reads again, even one its stream has paused since:
    // the stream then stops it by its own rules once its buffer is full.
    for (const [socket, handle] of paused) if (!socket.destroyed) handle.readStart();
  }

  /** Resumes every paused connection and pauses none from now on. */
  close(): void {
    this.#closed = true;
    this.#resume?.();
    this.#resumeAll();
  }
}

/**
 * Moderates the reads of every plaintext connection the HTTP/2 servers of a
 * bound grpc-js server accept from now on (a TLS connection's bytes are read
 * by its TLS layer, and are left alone). `onMissing` is called once per
 * plaintext connection the runtime would not let it moderate. Returns the
 * number of HTTP/2 servers.
 */
export function installReadModerator(
  server: object,
  moderator: ReadModerator,
  onMissing: () => void,
): number {
  const servers = http2ServersOf(server, "the read moderator");
  for (const http2 of servers) {
    http2.prependListener("session", (session: object) => {
      const socket = sessionSocket(session);
      if ((socket as { encrypted?: boolean } | undefined)?.encrypted === true) return;
      if (!moderator.watch(socket)) onMissing();
    });
  }
  return servers.length;
}
