// deno-lint-ignore-file no-console -- the abort is reported to whoever runs the test
/**
 * The one process death some tests tolerate: Deno 2.9.6's `node:http2` can
 * abort a server when a client's HTTP/2 GOAWAY arrives (nghttp2's
 * `find_stream_on_goaway_func` assertion, or heap corruption reported as
 * `free(): invalid pointer`); see docs/limits.md and
 * bench/tools/goaway_repro.ts. Tests check the service alive before their
 * clients close, then use this after the close.
 *
 * @module
 */
import assert from "node:assert/strict";

/** The log lines of the known abort. */
export const KNOWN_GOAWAY_ABORT: RegExp = /find_stream_on_goaway_func|free\(\): invalid pointer/;

/**
 * Passes when `died` is undefined (still running) or the process died of the
 * known abort (reported on stdout); fails with the log tail otherwise.
 */
export function assertAliveOrKnownAbort(
  died: Deno.CommandStatus | undefined,
  logs: string,
  when: string,
): void {
  if (!died) return;
  const known = KNOWN_GOAWAY_ABORT.test(logs);
  console.log(
    `the service died ${when} (exit ${died.code}, ${died.signal})` +
      (known ? ": the known nghttp2 GOAWAY abort" : `:\n${logs.slice(-3000)}`),
  );
  assert.ok(known, `the service died ${when} of something else than the known GOAWAY abort`);
}
