/**
 * The transport's ways around grpc-js (and protobufjs) for speed, together:
 * the Heartbeat lane and its framing, the heartbeat's direct decoding and
 * encoding, answers kept encoded, and the runtime workarounds. Every reach
 * into grpc-js's or Deno's internals is in `_runtime_internals.ts`, which
 * checks at start what they rely on; {@linkcode installFastPath} decides
 * what runs. `tests/heartbeat_lane_test.ts` is the lane's conformance test:
 * each call answered alike on the lane and on plain grpc-js.
 *
 * @module
 */
export { type FastPath, type FastPathOptions, installFastPath } from "./install_fast_path.ts";
export { splitHeartbeatReports } from "./heartbeat_split.ts";
export { EncodedOnce, passEncodedThrough } from "./pre_encoded.ts";
export { DEFAULT_READ_WINDOW_MS } from "./read_moderator.ts";
