/**
 * Worker: makes the driver's operator calls (DrainShards, UndrainShards,
 * DrainExecutors, UndrainExecutors) over one connection it never closes: it
 * exits instead. Closing a grpc-js connection sends an HTTP/2 GOAWAY, and
 * under Deno 2.9 the receiving side can abort on it (an nghttp2 assertion in
 * `find_stream_on_goaway_func`), so neither the driver nor the measured
 * service should ever see one from the driver.
 *
 * Options: `{ address }`. Commands: `{type:"call", method, request}` →
 * `{type:"answer", response}` (or `{type:"error"}`).
 *
 * @module
 */
import {
  drainExecutorsMethod,
  drainShardsMethod,
  type Method,
  openClient,
  unary,
  undrainExecutorsMethod,
  undrainShardsMethod,
} from "../lib/wire.ts";
import { emit, serveCommands, workerOptions } from "./_protocol.ts";

const METHODS: Record<string, Method> = {
  drainShards: drainShardsMethod,
  undrainShards: undrainShardsMethod,
  drainExecutors: drainExecutorsMethod,
  undrainExecutors: undrainExecutorsMethod,
};

const { address } = workerOptions<{ address: string }>();
const client = openClient(address);

serveCommands(async (command) => {
  if (command.type !== "call") return;
  const method = METHODS[String(command.method)];
  if (!method) throw new Error(`Unknown method ${command.method}`);
  for (let attempt = 1;; attempt++) {
    try {
      emit({ type: "answer", response: await unary(client, method, command.request, 15_000) });
      return;
    } catch (error) {
      // The driver's calls are not what is measured: retry a transient failure twice.
      if (attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
});
emit({ type: "ready" });
