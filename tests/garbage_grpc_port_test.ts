// deno-lint-ignore-file no-console -- what each case did is printed for whoever runs the test
/**
 * Raw garbage on the gRPC port: random bytes, a truncated HTTP/2 preface, a
 * valid preface followed by garbage frames, HTTP/1.1, and half-open or idle
 * connections. After every case a normal client must still be served and the
 * service process must still be running.
 */
import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { call, connect } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { fc } from "./support/proto_fuzz.ts";
import { startProcess, testConfigYaml } from "./support/service.ts";
import type { GetShardOwnerResponse__Output } from "../src/wire/proto.ts";
import { EMPTY_SETTINGS, frame, PREFACE } from "./support/h2_frames.ts";

const SEED = Number(Deno.env.get("FUZZ_SEED") ?? 20_261_130);
const RUNS = Number(Deno.env.get("FUZZ_RUNS") ?? 100);
/** Random frames of any type (known and unknown), flags, stream id and length. */
const garbageFrames = fc.array(
  fc.record({
    type: fc.oneof(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 255 })),
    flags: fc.integer({ min: 0, max: 255 }),
    stream: fc.oneof(fc.constantFrom(0, 1, 3, 2 ** 31 - 1), fc.nat()),
    payload: fc.uint8Array({ maxLength: 300 }),
    lie: fc.option(fc.integer({ min: 0, max: 2 ** 24 - 1 }), { freq: 4 }),
  }).map(({ type, flags, stream, payload, lie }) =>
    frame(type, flags, stream, payload, lie ?? undefined)
  ),
  { minLength: 1, maxLength: 8 },
);

/** Writes `chunks` on a new connection, reads whatever comes back for a moment, and closes. */
async function send(
  address: string,
  chunks: readonly Uint8Array[],
  options: { closeWrite?: boolean; keep?: Deno.TcpConn[] } = {},
): Promise<void> {
  const [hostname, port] = [address.slice(0, address.lastIndexOf(":")), address.split(":").pop()];
  const conn = await Deno.connect({ hostname, port: Number(port) });
  try {
    for (const chunk of chunks) await conn.write(chunk);
    if (options.closeWrite) await conn.closeWrite();
  } catch { /* the server may have hung up already */ }
  const reading = (async () => {
    const buffer = new Uint8Array(4096);
    try {
      while ((await conn.read(buffer)) !== null) { /* discard */ }
    } catch { /* reset by the server */ }
  })();
  if (options.keep) {
    options.keep.push(conn);
    return;
  }
  // Give the server up to 100 ms to answer or hang up, then hang up ourselves.
  await Promise.race([reading, new Promise((r) => setTimeout(r, 100))]);
  try {
    conn.close();
  } catch { /* already closed */ }
  await reading;
}

Deno.test({
  name: "garbage on the gRPC port never takes the service down",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const etcd = await startEtcd();
    const service = await startProcess(
      testConfigYaml({
        endpoints: etcd.endpoints,
        prefix: uniquePrefix("garbage"),
        namespaces: [{ name: "ns", type: "fixed", shardNum: 4 }],
      }),
      "garbage-1",
    );
    const clients = connect(service.address);
    const executors = runExecutors(clients, "ns", ["a"], { intervalMs: 300 });
    const held: Deno.TcpConn[] = [];
    const served = async (what: string) => {
      assert.equal(service.exited(), undefined, `the service is running after ${what}`);
      const res = await call<unknown, GetShardOwnerResponse__Output>(
        clients.api,
        "getShardOwner",
        { namespace: "ns", shardKey: "1" },
        5_000,
      );
      assert.equal(res.owner, "a", `served after ${what}`);
    };
    try {
      await eventually(() => executors[0]!.shards.length === 4, 15_000, "a owns every shard");
      const sample = <T>(arbitrary: fc.Arbitrary<T>, n: number, offset: number) =>
        fc.sample(arbitrary, { numRuns: n, seed: SEED + offset });

      for (const bytes of sample(fc.uint8Array({ minLength: 1, maxLength: 65_536 }), 20, 1)) {
        await send(service.address, [bytes]);
      }
      await served("random bytes");

      for (let cut = 0; cut < PREFACE.length; cut += 3) {
        await send(service.address, [PREFACE.slice(0, cut)]);
      }
      await send(service.address, [PREFACE.slice(0, 10), new Uint8Array(100).fill(0x41)]);
      await served("truncated and corrupted prefaces");

      const frameSets = sample(garbageFrames, Math.max(20, Math.round(RUNS / 2)), 2);
      for (const frames of frameSets) {
        await send(service.address, [PREFACE, EMPTY_SETTINGS, ...frames]);
      }
      await served(`a valid preface followed by garbage frames (${frameSets.length} connections)`);

      // A HEADERS frame whose header block is not HPACK, and a DATA frame on a stream never opened.
      await send(service.address, [
        PREFACE,
        EMPTY_SETTINGS,
        frame(1, 0x4, 1, Uint8Array.from([0xff, 0xff, 0xff, 0xff])),
        frame(0, 0x1, 5, new Uint8Array(20)),
      ]);
      await send(service.address, [new TextEncoder().encode("GET / HTTP/1.1\r\nHost: x\r\n\r\n")]);
      await served("bad HPACK, stray DATA and HTTP/1.1");

      // Half-open (write side shut after the preface) and idle connections, left open.
      for (let i = 0; i < 20; i++) {
        await send(service.address, [PREFACE], { closeWrite: true, keep: held });
        await send(service.address, i % 2 ? [PREFACE, EMPTY_SETTINGS] : [], { keep: held });
      }
      await served(`${held.length} half-open and idle connections`);
      console.log(`garbage cases done; ${held.length} connections still held open`);
    } finally {
      for (const conn of held) {
        try {
          conn.close();
        } catch { /* closed by the server */ }
      }
      for (const e of executors) e.stop();
      clients.close();
      // Nothing must happen: 300 ms for the service to die of the GOAWAY, if it would.
      await new Promise((r) => setTimeout(r, 300));
      const died = service.exited();
      const logs = service.logs();
      await service.kill("SIGTERM");
      await etcd.close();
      // Closing the test's own clients sends GOAWAY: the service must survive that too.
      assert.equal(died, undefined, `the service died at client close:\n${logs.slice(-3000)}`);
    }
  },
});
