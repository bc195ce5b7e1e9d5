// deno-lint-ignore-file no-console -- seeds and outcome counts are printed for whoever runs the fuzzer
/**
 * Property-based fuzzing of every RPC of the Shard Distributor services, over
 * real gRPC, against a service process on a real etcd. For each RPC listed
 * from the proto files, fast-check sends random and malformed requests (see
 * `support/proto_fuzz.ts`) and checks that every answer has an allowed status;
 * meanwhile a control client in another namespace, on its own connection,
 * must keep succeeding, and at the end the process must still be running.
 *
 * `FUZZ_RUNS` (default 40, CI's time) sets the requests per RPC, `FUZZ_SEED` the seed
 * (default fixed, so CI is repeatable; the seed is printed on failure), and
 * `FUZZ_SKIP` (comma-separated RPC names) leaves RPCs out, to isolate a failure.
 */
import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { call, connect } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { fc, grpc, rawCall, requestArbitrary, rpcMethods } from "./support/proto_fuzz.ts";
import { startProcess, testConfigYaml } from "./support/service.ts";
import type { GetShardOwnerResponse__Output } from "../src/wire/proto.ts";

const RUNS = Number(Deno.env.get("FUZZ_RUNS") ?? 40);
const SEED = Number(Deno.env.get("FUZZ_SEED") ?? 20_261_130);
const MAX_MESSAGE = 256 * 1024;

/**
 * The statuses a caller's request may get. The domain answers:
 * OK; INVALID_ARGUMENT (a malformed field, an undecodable message);
 * NOT_FOUND (no such namespace, shard or executor); FAILED_PRECONDITION (a
 * drained shard); RESOURCE_EXHAUSTED (the ephemeral-shard cap, or a message
 * over `limits.maxReceiveMessageBytes`). UNAVAILABLE only as "has no owner"
 * (GetShardOwner when no executor can take the shard: retry later) — never
 * because the service or etcd broke. Never INTERNAL, UNKNOWN or a dropped
 * connection. ALREADY_EXISTS and OUT_OF_RANGE are left out: no handler
 * produces them, so seeing one would be a change worth a look.
 */
function allowed(code: grpc.status, details: string): boolean {
  switch (code) {
    case grpc.status.OK:
    case grpc.status.INVALID_ARGUMENT:
    case grpc.status.NOT_FOUND:
    case grpc.status.FAILED_PRECONDITION:
    case grpc.status.RESOURCE_EXHAUSTED:
      return true;
    case grpc.status.UNAVAILABLE:
      return /has no owner/.test(details);
    default:
      return false;
  }
}

Deno.test({
  name: "fuzzing every RPC with random and malformed requests never crashes the service",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const methods = rpcMethods();
    // Both services and every RPC they declare, straight from the proto files.
    assert.ok(methods.some((m) => m.name === "Heartbeat"));
    assert.ok(methods.length >= 15, methods.map((m) => m.name).join(", "));
    const etcd = await startEtcd();
    const yaml = testConfigYaml({
      endpoints: etcd.endpoints,
      prefix: uniquePrefix("fuzz-rpc"),
      namespaces: [
        { name: "fz-fixed", type: "fixed", shardNum: 8 },
        { name: "fz-eph", type: "ephemeral", maxShards: 50 },
        { name: "ctl", type: "fixed", shardNum: 4 },
      ],
    }) + `limits:\n  maxReceiveMessageBytes: ${MAX_MESSAGE}\n`;
    const service = await startProcess(yaml, "fuzz-1");
    const control = connect(service.address);
    const helper = connect(service.address);
    const executors = [
      ...runExecutors(control, "ctl", ["ctl-a"], { intervalMs: 300 }),
      ...runExecutors(helper, "fz-eph", ["fz-exec"], { intervalMs: 300 }),
      ...runExecutors(helper, "fz-fixed", ["fz-fixed-exec"], { intervalMs: 300 }),
    ];
    const fuzzer = new grpc.Client(service.address, grpc.credentials.createInsecure(), {
      "grpc.max_send_message_length": -1,
    });
    const controlFailures: string[] = [];
    let controlCalls = 0;
    let fuzzing = true;
    let controlLoop: Promise<void> = Promise.resolve();
    const outcomes: Record<string, Record<string, number>> = {};
    try {
      await eventually(() => executors[0]!.shards.length === 4, 15_000, "ctl-a owns ctl");
      controlLoop = (async () => {
        while (fuzzing) {
          try {
            const res = await call<unknown, GetShardOwnerResponse__Output>(
              control.api,
              "getShardOwner",
              { namespace: "ctl", shardKey: String(controlCalls % 4) },
              5_000,
            );
            if (res.owner !== "ctl-a") controlFailures.push(`owner ${res.owner}`);
          } catch (error) {
            controlFailures.push(String((error as Error).message));
          }
          controlCalls++;
          await new Promise((r) => setTimeout(r, 100)); // a steady trickle beside the fuzz
        }
      })();
      console.log(`fuzzing ${methods.length} RPCs, ${RUNS} runs each, seed ${SEED}`);
      for (const [index, method] of methods.entries()) {
        if (Deno.env.get("FUZZ_SKIP")?.split(",").includes(method.name)) continue;
        const counts: Record<string, number> = outcomes[method.name] = {};
        await fc.assert(
          fc.asyncProperty(
            requestArbitrary(method, {
              namespaces: ["fz-fixed", "fz-eph", "nope", "fz-fixed"],
              keys: ["0", "1", "7", "8", "k-1", "k-2", "e1", "fz-exec-2"],
            }, MAX_MESSAGE + 1),
            async (bytes) => {
              const outcome = await rawCall(fuzzer, method, bytes, 15_000);
              const name = grpc.status[outcome.code] ?? String(outcome.code);
              counts[name] = (counts[name] ?? 0) + 1;
              assert.ok(
                allowed(outcome.code, outcome.details),
                `${method.name} answered ${name}: ${outcome.details}`,
              );
            },
          ),
          { numRuns: RUNS, seed: SEED + index, endOnFailure: true },
        );
      }
      console.log("outcomes per RPC:", JSON.stringify(outcomes));
      fuzzing = false;
      await controlLoop;
      console.log(
        `control calls: ${controlCalls}, failed: ${controlFailures.length}`,
        controlFailures,
      );
      assert.deepEqual(controlFailures, [], "the control client kept being served");
      const after = await call<unknown, GetShardOwnerResponse__Output>(
        control.api,
        "getShardOwner",
        { namespace: "ctl", shardKey: "3" },
      );
      assert.equal(after.owner, "ctl-a");
      assert.equal(service.exited(), undefined, "the service is still running after the fuzz");
    } finally {
      fuzzing = false;
      await controlLoop;
      for (const e of executors) e.stop();
      fuzzer.close();
      control.close();
      helper.close();
      // Closing the clients sends HTTP/2 GOAWAY; on the pinned Deno that never
      // aborts the service (tests/runtime_disconnect_test.ts).
      await new Promise((r) => setTimeout(r, 300));
      const died = service.exited();
      const logs = service.logs();
      await service.kill("SIGTERM");
      await etcd.close();
      assert.equal(died, undefined, `the service died at client close:\n${logs.slice(-3000)}`);
    }
  },
});
