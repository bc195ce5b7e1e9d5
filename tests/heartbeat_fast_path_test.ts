/**
 * The heartbeat fast path end to end (real gRPC, real etcd): an executor's
 * reports are decoded only when their bytes change, and skipping that work
 * never skips a change: unchanged heartbeats, changed loads, a newly reported
 * shard, a DONE report, and requests whose bytes the fast path does not take
 * (entries out of one run, malformed entries).
 *
 * @module
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { call, codeOf, connect, grpc, heartbeat } from "./support/grpc_clients.ts";
import { eventually } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import {
  executorService,
  type InspectShardResponse__Output,
  type ShardStatusReport,
} from "../src/wire/proto.ts";

const ACTIVE = "EXECUTOR_STATUS_ACTIVE";
const ready = (shardLoad: number): ShardStatusReport => ({
  status: "SHARD_STATUS_READY",
  shardLoad,
});

Deno.test("heartbeats: unchanged reports keep their record, and every change reaches it", async () => {
  const etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("fast-path"),
    namespaces: [
      { name: "ns", type: "fixed", shardNum: 2 },
      { name: "eph", type: "ephemeral" },
    ],
    process: { heartbeatTTL: "30s" },
  }));
  const clients = connect(instance.server.address);
  const beat = (namespace: string, shardStatusReports: Record<string, ShardStatusReport>) =>
    heartbeat(clients, { namespace, executorId: "a", status: ACTIVE, shardStatusReports });
  const inspect = (namespace: string, shardKey: string) =>
    call<unknown, InspectShardResponse__Output>(clients.api, "inspectShard", {
      namespace,
      shardKey,
    });
  const loadOf = async (key: string) => (await inspect("ns", key)).shardLoad;
  try {
    await eventually(
      async () => Object.keys((await beat("ns", {})).shardAssignments ?? {}).length === 2,
      10_000,
      "a owns both shards",
    );
    // A first report, then the same bytes again and again: the record keeps it.
    await beat("ns", { "0": ready(2) });
    await eventually(async () => await loadOf("0") === 2, 10_000, "the first load is recorded");
    for (let i = 0; i < 5; i++) await beat("ns", { "0": ready(2) });
    assert.equal(await loadOf("0"), 2);

    // A load beyond the write tolerance, and a newly reported shard.
    await beat("ns", { "0": ready(6), "1": ready(7) });
    await eventually(
      async () => await loadOf("0") === 6 && await loadOf("1") === 7,
      10_000,
      "changed and new reports are recorded",
    );
    // Back to bytes sent before: compared with the record again, so recorded again.
    await beat("ns", { "0": ready(2) });
    await eventually(async () => await loadOf("0") === 2, 10_000, "the earlier load again");

    // DONE in an ephemeral namespace ends the shard.
    await beat("eph", {});
    await eventually(
      async () =>
        await codeOf(beat("eph", {})) === "ok" &&
        await codeOf(
            call(clients.api, "getShardOwner", { namespace: "eph", shardKey: "job-1" }),
          ) ===
          "ok",
      10_000,
      "a serves the ephemeral namespace",
    );
    const created = await call<unknown, { owner: string }>(clients.api, "getShardOwner", {
      namespace: "eph",
      shardKey: "job-1",
    });
    assert.equal(created.owner, "a");
    await beat("eph", { "job-1": ready(1) });
    await beat("eph", { "job-1": ready(1) });
    await beat("eph", { "job-1": { status: "SHARD_STATUS_DONE", shardLoad: 1 } });
    await eventually(
      async () => await codeOf(inspect("eph", "job-1")) === grpc.status.NOT_FOUND,
      10_000,
      "the DONE shard is gone",
    );
  } finally {
    clients.close();
    await instance.stop();
    await etcd.close();
  }
});

Deno.test("heartbeats the fast path does not take: entries out of one run decode whole, malformed entries are INVALID_ARGUMENT", async () => {
  const etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("fast-path-raw"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 2 }],
    process: { heartbeatTTL: "30s" },
  }));
  const encode = (request: unknown) =>
    executorService.Heartbeat.requestSerialize(request as never) as Buffer;
  const client = new grpc.Client(instance.server.address, grpc.credentials.createInsecure());
  const send = (bytes: Buffer) =>
    new Promise<Buffer>((resolve, reject) =>
      client.makeUnaryRequest(
        executorService.Heartbeat.path,
        (b: Buffer) => b,
        (b: Buffer) => b,
        bytes,
        new grpc.Metadata(),
        { deadline: Date.now() + 10_000 },
        (error, value) => error ? reject(error) : resolve(value!),
      )
    );
  const clients = connect(instance.server.address);
  const loadOf = async (key: string) =>
    (await call<unknown, InspectShardResponse__Output>(clients.api, "inspectShard", {
      namespace: "ns",
      shardKey: key,
    })).shardLoad;
  try {
    const head = encode({ namespace: "ns", executorId: "a", status: ACTIVE });
    await send(head);
    await eventually(
      async () => await codeOf(loadOf("0")) === "ok" && await codeOf(loadOf("1")) === "ok",
      10_000,
      "a owns the shards",
    );
    const interleaved = Buffer.concat([
      encode({ shardStatusReports: { "0": ready(3) } }),
      head,
      encode({ shardStatusReports: { "1": ready(4) } }),
    ]);
    await send(interleaved);
    await eventually(
      async () => await loadOf("0") === 3 && await loadOf("1") === 4,
      10_000,
      "both reports recorded",
    );
    const malformed = Buffer.concat([head, Buffer.from([0x22, 2, 0x0a, 5])]);
    const error = await send(malformed).then(() => undefined, (e: grpc.ServiceError) => e);
    assert.equal(error?.code, grpc.status.INVALID_ARGUMENT, error?.details ?? "answered");
    assert.match(error?.details ?? "", /shard_status_reports/);
  } finally {
    client.close();
    clients.close();
    await instance.stop();
    await etcd.close();
  }
});
