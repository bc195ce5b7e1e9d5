import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { service as healthService } from "grpc-health-check";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { eventually } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";

/** Every call here has a deadline: a stuck call fails the test instead of hanging it. */
const CALL_DEADLINE_MS = 10_000;

const REFLECTION_PROTO = new URL("./support/proto/reflection_v1.proto", import.meta.url).pathname;

interface ReflectionResponse {
  listServicesResponse?: { service: { name: string }[] };
  fileDescriptorResponse?: { fileDescriptorProto: Uint8Array[] };
  errorResponse?: { errorCode: number; errorMessage: string };
}

/** Asks the server's reflection service one question, as grpcurl does. */
function reflect(address: string, request: Record<string, string>): Promise<ReflectionResponse> {
  const definition = protoLoader.loadSync(REFLECTION_PROTO, { keepCase: false, oneofs: true });
  const pkg = grpc.loadPackageDefinition(definition) as unknown as {
    grpc: { reflection: { v1: { ServerReflection: grpc.ServiceClientConstructor } } };
  };
  const client = new pkg.grpc.reflection.v1.ServerReflection(
    address,
    grpc.credentials.createInsecure(),
  );
  return new Promise((resolve, reject) => {
    const call = (client as unknown as {
      serverReflectionInfo(
        options: grpc.CallOptions,
      ): grpc.ClientDuplexStream<unknown, ReflectionResponse>;
    }).serverReflectionInfo({ deadline: Date.now() + CALL_DEADLINE_MS });
    call.on("data", (response: ReflectionResponse) => {
      resolve(response);
      call.end();
      client.close();
    });
    call.on("error", (error) => {
      client.close();
      reject(error);
    });
    call.on("end", () => reject(new Error("the reflection stream ended without an answer")));
    call.write(request);
  });
}

/** Wraps FileDescriptorProto bytes as a FileDescriptorSet (`repeated FileDescriptorProto file = 1`). */
function fileDescriptorSet(files: readonly Uint8Array[]): Buffer {
  const parts: number[] = [];
  for (const file of files) {
    parts.push(0x0a);
    for (let n = file.length;; n >>>= 7) {
      if (n < 0x80) {
        parts.push(n);
        break;
      }
      parts.push((n & 0x7f) | 0x80);
    }
    parts.push(...file);
  }
  return Buffer.from(parts);
}

function checkHealth(address: string, service: string): Promise<string> {
  const Client = grpc.makeGenericClientConstructor(healthService, "Health");
  const client = new Client(address, grpc.credentials.createInsecure()) as unknown as {
    check(
      req: { service: string },
      options: grpc.CallOptions,
      cb: (e: Error | null, res?: { status: string }) => void,
    ): void;
    close(): void;
  };
  return new Promise((resolve, reject) =>
    client.check({ service }, { deadline: Date.now() + CALL_DEADLINE_MS }, (error, res) => {
      client.close();
      error ? reject(error) : resolve(String(res?.status));
    })
  );
}

Deno.test("health over gRPC and HTTP follows etcd; reflection lists the services", async () => {
  const etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("ops-health"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 4 }],
  }));
  const grpcAddress = instance.server.address;
  const http = `http://${instance.http.address}`;
  const get = (path: string) =>
    fetch(`${http}${path}`, { signal: AbortSignal.timeout(CALL_DEADLINE_MS) });
  const status = (path: string) => get(path).then(async (r) => (await r.body?.cancel(), r.status));
  try {
    assert.equal((await get("/healthz").then((r) => r.json())).status, "ok");
    await eventually(
      async () => (await status("/readyz")) === 200,
      10_000,
      "ready over HTTP",
    );
    await eventually(
      async () => (await checkHealth(grpcAddress, "")) === "SERVING",
      10_000,
      "SERVING over gRPC",
    );
    assert.equal(
      await checkHealth(grpcAddress, "uber.cadence.sharddistributor.v1.ShardDistributorAPI"),
      "SERVING",
    );
    await assert.rejects(checkHealth(grpcAddress, "no.such.Service"), /NOT_FOUND/);

    const listed = await reflect(grpcAddress, { listServices: "*" });
    const names = listed.listServicesResponse?.service.map((s) => s.name) ?? [];
    for (
      const name of [
        "uber.cadence.sharddistributor.v1.ShardDistributorAPI",
        "uber.cadence.sharddistributor.v1.ShardDistributorExecutorAPI",
        "grpc.health.v1.Health",
      ]
    ) assert.ok(names.includes(name), `${name} in ${names}`);
    // grpcurl describe grpc.health.v1.Health: the file holding it, with its methods and messages.
    for (const symbol of ["grpc.health.v1.Health", "grpc.health.v1.HealthCheckResponse"]) {
      const health = await reflect(grpcAddress, { fileContainingSymbol: symbol });
      assert.equal(
        health.errorResponse,
        undefined,
        `${symbol}: ${health.errorResponse?.errorMessage}`,
      );
      const files = health.fileDescriptorResponse?.fileDescriptorProto ?? [];
      const described = protoLoader.loadFileDescriptorSetFromBuffer(fileDescriptorSet(files));
      const service = described["grpc.health.v1.Health"] as protoLoader.ServiceDefinition;
      for (const method of ["Check", "Watch"]) assert.ok(method in service, `${symbol}: ${method}`);
      assert.ok("grpc.health.v1.HealthCheckRequest" in described);
    }
    const file = await reflect(grpcAddress, {
      fileContainingSymbol: "uber.cadence.sharddistributor.v1.ShardDistributorAPI",
    });
    const descriptor = new TextDecoder().decode(
      file.fileDescriptorResponse?.fileDescriptorProto[0],
    );
    assert.match(descriptor, /GetShardOwner/, "the descriptor names the methods");

    await etcd[Symbol.asyncDispose]();
    await eventually(
      async () => (await status("/readyz")) === 503,
      15_000,
      "not ready once etcd is gone",
    );
    assert.equal(await checkHealth(grpcAddress, ""), "NOT_SERVING");
    const body = await get("/readyz").then((r) => r.json());
    assert.equal(body.storeReachable, false);
  } finally {
    await instance.stop();
    await etcd[Symbol.asyncDispose]();
  }
});
