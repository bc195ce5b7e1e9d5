/**
 * Wire fidelity with an independent client: Python grpcio, with stubs that
 * grpc_tools' protoc generates at test time from upstream's compiled contract
 * (`proto/upstream/shard_manager.binpb`, `--descriptor_set_in`), against a real
 * service instance on a real etcd. It reads the typed error details with
 * upstream's message types, and sends heartbeats with enum values upstream
 * does not name and multi-byte metadata keys.
 *
 * Needs Debian's `python3-grpcio` and `python3-grpc-tools` (they bring
 * `python3-protobuf`). Without them the test is skipped, except when `CI` is
 * `true`: there it fails, so that CI never passes without running it.
 */
import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { call, connect } from "./support/grpc_clients.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import { UPSTREAM_IMAGES } from "./support/upstream_wire.ts";
import type { GetNamespaceStateResponse__Output } from "../src/wire/proto.ts";

const SCRIPT = new URL("./support/python/upstream_client.py", import.meta.url).pathname;
const INSTALL = "apt-get install -y python3-grpcio python3-grpc-tools";

/** The first Python that has grpcio and grpc_tools (`PYTHON` first, then the Debian one). */
async function findPython(): Promise<string | undefined> {
  const candidates = [Deno.env.get("PYTHON"), "/usr/bin/python3", "python3"];
  for (const python of candidates) {
    if (!python) continue;
    try {
      const { code } = await new Deno.Command(python, {
        args: ["-c", "import grpc, grpc_tools.protoc"],
        stdout: "null",
        stderr: "null",
      }).output();
      if (code === 0) return python;
    } catch { /* not installed */ }
  }
  return undefined;
}

const python = await findPython();
const required = Deno.env.get("CI") === "true";

interface Observed {
  readonly case: string;
  readonly code: string;
  readonly details?: string | { readonly type_url: string; readonly fields?: unknown }[];
  readonly status?: { readonly code: number; readonly message: string };
}

Deno.test({
  name: python
    ? "a Python grpcio client built from upstream's contract reads typed details and is served open enums and byte-counted keys"
    : `Python upstream client (skipped: no python3 with grpc; ${INSTALL})`,
  ignore: python === undefined && !required,
  async fn() {
    assert.ok(python, `No python3 with grpcio and grpc_tools; in CI, ${INSTALL}`);
    await using etcd = await startEtcd();
    const instance = await startInProcess(testConfigYaml({
      endpoints: etcd.endpoints,
      prefix: uniquePrefix("upstream-python"),
      namespaces: [{ name: "fixed", type: "fixed", shardNum: 4 }],
    }));
    const ours = connect(instance.server.address);
    const work = await Deno.makeTempDir({ prefix: "sm-python-" });
    try {
      await call(ours.api, "drainShards", { namespace: "fixed", shardKeys: ["2"] });
      const run = await new Deno.Command(python, {
        args: [SCRIPT, UPSTREAM_IMAGES.shardManager.pathname, instance.server.address, work],
        stdout: "piped",
        stderr: "piped",
      }).output();
      const decoder = new TextDecoder();
      const stdout = decoder.decode(run.stdout);
      assert.equal(
        run.code,
        0,
        `python exited ${run.code}:\n${stdout}${decoder.decode(run.stderr)}`,
      );
      const seen = new Map<string, Observed>(
        stdout.trim().split("\n").map((line) => JSON.parse(line) as Observed).map((
          o,
        ) => [o.case, o]),
      );
      const detailed = (name: string, code: string, type: string, fields: unknown) => {
        const o = seen.get(name);
        assert.ok(o, `${name}: no result`);
        assert.equal(o.code, code, name);
        assert.deepEqual(o.status?.code, { NOT_FOUND: 5, FAILED_PRECONDITION: 9 }[code], name);
        assert.equal(typeof o.details, "object", `${name}: a detail trailer`);
        assert.deepEqual(o.details, [{
          type_url: `type.googleapis.com/uber.cadence.sharddistributor.v1.${type}`,
          fields,
        }], name);
      };
      detailed("unknown namespace", "NOT_FOUND", "NamespaceNotFoundError", { namespace: "nope" });
      detailed("unknown shard", "NOT_FOUND", "ShardNotFoundError", {
        namespace: "fixed",
        shard_key: "4",
      });
      detailed("drained shard", "FAILED_PRECONDITION", "ShardDrainedError", {
        namespace: "fixed",
        shard_key: "2",
      });
      assert.equal(seen.get("unknown namespace")?.status?.message, 'Namespace "nope" not found');

      assert.equal(seen.get("unknown executor status")?.code, "OK");
      assert.equal(seen.get("INVALID executor status")?.code, "INVALID_ARGUMENT");
      assert.equal(seen.get("64×é key (128 bytes)")?.code, "OK");
      for (const name of ["65×é key (130 bytes)", "40×😀 key (160 bytes)"]) {
        assert.equal(seen.get(name)?.code, "INVALID_ARGUMENT", name);
        assert.match(String(seen.get(name)?.details), /bytes \(UTF-8\); at most 128/);
      }
      const state = await call<unknown, GetNamespaceStateResponse__Output>(
        ours.api,
        "getNamespaceState",
        { namespace: "fixed" },
      );
      const newer = state.executors.find((e) => e.executorId === "py-newer");
      assert.equal(newer?.status, 7 as never, "the unknown status is kept as sent");
    } finally {
      ours.close();
      await instance.stop();
      await Deno.remove(work, { recursive: true });
    }
  },
});
