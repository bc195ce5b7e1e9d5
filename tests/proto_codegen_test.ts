/**
 * Guards the wire contract: the committed generated types and embedded
 * contract must match the `.proto` files (and load into what `loadSync`
 * makes of them), and the `.proto` files must pass `buf lint` and have no
 * breaking change against `proto/baseline.json` nor against upstream's
 * contract (`proto/upstream/`).
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import * as protoLoader from "@grpc/proto-loader";
import {
  GEN_DIR,
  GEN_LOADER_OPTIONS,
  generateProtoTypes,
  listProtoFiles,
  PROTO_DIR,
  REPO_ROOT,
} from "../scripts/gen_proto.ts";
import { BASELINE_PATH } from "../scripts/update_proto_baseline.ts";
import { UPSTREAM_SOURCES } from "../scripts/update_upstream_protos.ts";
import { protoCheckSteps } from "../scripts/proto_check.ts";
import { packageDefinition } from "../src/wire/package_definition.ts";
import { PROTO_LOADER_OPTIONS } from "../src/wire/proto.ts";

const decoder = new TextDecoder();

/** Reads every file under `dir` into a map keyed by path relative to `dir`. */
async function readTree(dir: string, prefix = ""): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for await (const entry of Deno.readDir(`${dir}/${prefix}`)) {
    const path = `${prefix}${entry.name}`;
    if (entry.isDirectory) {
      for (const [key, text] of await readTree(dir, `${path}/`)) files.set(key, text);
    } else {
      files.set(path, await Deno.readTextFile(`${dir}/${path}`));
    }
  }
  return files;
}

/** Runs the buf CLI from the repository root; returns its exit code and output. */
async function buf(...args: string[]): Promise<{ code: number; output: string }> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "npm:@bufbuild/buf", ...args],
    cwd: REPO_ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code, output: decoder.decode(stdout) + decoder.decode(stderr) };
}

Deno.test("committed generated types match a fresh `deno task proto`", async () => {
  const scratch = await Deno.makeTempDir({ prefix: "proto_codegen_" });
  try {
    await generateProtoTypes(`${scratch}/gen`);
    const fresh = await readTree(`${scratch}/gen`);
    const committed = await readTree(fileURLToPath(new URL(GEN_DIR, REPO_ROOT)));
    const paths = [...new Set([...fresh.keys(), ...committed.keys()])].sort();
    const stale = paths.filter((path) => fresh.get(path) !== committed.get(path)).map((path) =>
      !committed.has(path) ? `missing: ${path}` : !fresh.has(path) ? `extra: ${path}` : path
    );
    assert.deepEqual(
      stale,
      [],
      `${GEN_DIR}/ is out of date with ${PROTO_DIR}/; run \`deno task proto\`. Differs:\n  ${
        stale.join("\n  ")
      }`,
    );
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
});

/**
 * What a package definition is on the wire and to reflection, per name: each
 * message's and enum's file descriptors (bytes), each method's path,
 * streaming flags and request/response file descriptors.
 */
function describe(definition: protoLoader.PackageDefinition): Record<string, unknown> {
  const hex = (files: readonly Uint8Array[]) =>
    files.map((file) => [...file].map((b) => b.toString(16).padStart(2, "0")).join(""));
  return Object.fromEntries(
    Object.entries(definition).map(([name, value]) => {
      if ("format" in value) {
        const typed = value as protoLoader.MessageTypeDefinition<object, object>;
        return [name, { format: typed.format, files: hex(typed.fileDescriptorProtos) }];
      }
      const methods = Object.entries(value as protoLoader.ServiceDefinition).map(([m, d]) => [m, {
        path: d.path,
        requestStream: d.requestStream,
        responseStream: d.responseStream,
        originalName: d.originalName,
        request: hex(d.requestType.fileDescriptorProtos),
        response: hex(d.responseType.fileDescriptorProtos),
      }]);
      return [name, Object.fromEntries(methods)];
    }),
  );
}

Deno.test("the embedded contract loads into what loadSync makes of proto/", async () => {
  const fromFiles = protoLoader.loadSync(await listProtoFiles(), {
    ...PROTO_LOADER_OPTIONS,
    includeDirs: [fileURLToPath(new URL(PROTO_DIR, REPO_ROOT))],
  });
  assert.deepEqual(describe(packageDefinition), describe(fromFiles));
  // And a message with a map, an enum, a double and an int64 encodes and decodes alike.
  const type = "uber.cadence.sharddistributor.v1.HeartbeatRequest";
  const [embedded, loaded] = [
    packageDefinition[type],
    fromFiles[type],
  ] as protoLoader.MessageTypeDefinition<object, object>[];
  const message = {
    namespace: "ns",
    executorId: "e-1",
    status: "EXECUTOR_STATUS_DRAINING",
    shardStatusReports: { "7": { status: "SHARD_STATUS_READY", shardLoad: 2.5 } },
    metadata: { address: "10.0.0.1:80" },
    appliedRevision: "9007199254740993",
  };
  const bytes = loaded!.serialize(message);
  assert.deepEqual(embedded!.serialize(message), bytes);
  assert.deepEqual(embedded!.deserialize(bytes), loaded!.deserialize(bytes));
});

Deno.test("types are generated with the options the runtime loader uses", () => {
  const runtime = Object.fromEntries(
    Object.entries(PROTO_LOADER_OPTIONS).map((
      [key, value],
    ) => [key, typeof value === "function" ? value.name : value]),
  );
  assert.deepEqual(runtime, GEN_LOADER_OPTIONS);
});

Deno.test("buf lint passes on proto/", async () => {
  const { code, output } = await buf("lint", PROTO_DIR);
  assert.equal(code, 0, `buf lint failed:\n${output}`);
});

Deno.test("buf breaking finds no break against proto/baseline.json", async () => {
  const { code, output } = await buf("breaking", PROTO_DIR, "--against", BASELINE_PATH);
  assert.equal(code, 0, `buf breaking failed against ${BASELINE_PATH}:\n${output}`);
});

/** Copies the `.proto` files and buf.yaml of `proto/` into `scratch`, each edited by `edit`. */
async function copyContract(scratch: string, edit: (text: string) => string): Promise<void> {
  const source = fileURLToPath(new URL(PROTO_DIR, REPO_ROOT));
  const walk = async (prefix: string): Promise<void> => {
    for await (const entry of Deno.readDir(`${source}/${prefix}`)) {
      const path = `${prefix}${entry.name}`;
      if (entry.isDirectory) await walk(`${path}/`);
      else if (path.endsWith(".proto") || path === "buf.yaml") {
        await Deno.mkdir(`${scratch}/${prefix}`, { recursive: true });
        await Deno.writeTextFile(
          `${scratch}/${path}`,
          edit(await Deno.readTextFile(`${source}/${path}`)),
        );
      }
    }
  };
  await walk("");
}

Deno.test("buf breaking rejects a renumbered field", async () => {
  const scratch = await Deno.makeTempDir({ prefix: "proto_breaking_" });
  try {
    await copyContract(
      scratch,
      (text) => text.replace("string shard_key = 1;", "string shard_key = 9;"),
    );
    const { code, output } = await buf("breaking", scratch, "--against", BASELINE_PATH);
    assert.notEqual(code, 0, `buf breaking accepted a renumbered field:\n${output}`);
    assert.match(output, /shard_key/);
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
});

for (const source of UPSTREAM_SOURCES) {
  Deno.test(`buf breaking finds no break against upstream ${source.repository}`, async () => {
    const { code, output } = await buf("breaking", PROTO_DIR, "--against", source.image);
    assert.equal(code, 0, `proto/ breaks upstream's contract (${source.image}):\n${output}`);
  });
}

Deno.test("proto:check catches a break of upstream's contract even after the baseline accepted it", async () => {
  const scratch = await Deno.makeTempDir({ prefix: "proto_upstream_" });
  try {
    // ShardNotFoundError.shard_key is 2 upstream; a careless change and baseline update.
    await copyContract(
      scratch,
      (text) => text.replace(/(message ShardNotFoundError \{[^}]*string shard_key = )2;/, "$13;"),
    );
    const text = await Deno.readTextFile(
      `${scratch}/uber/cadence/sharddistributor/v1/service.proto`,
    );
    assert.match(text, /message ShardNotFoundError \{[^}]*shard_key = 3;/, "the edit applied");
    await buf("build", scratch, "--exclude-source-info", "-o", `${scratch}/baseline.json`);
    const [, baseline, ...upstream] = protoCheckSteps(scratch);
    const against = (step: typeof baseline) =>
      buf(...step!.args.map((a) => a === BASELINE_PATH ? `${scratch}/baseline.json` : a));
    assert.equal((await against(baseline)).code, 0, "the edited baseline accepts the change");
    for (const step of upstream) {
      const { code, output } = await against(step);
      assert.notEqual(code, 0, `${step.what} accepted it:\n${output}`);
      assert.match(output, /field "2" with name "shard_key" on message "ShardNotFoundError"/);
    }
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
});

Deno.test("buf breaking against upstream ignores go_package but not a removed enum value", async () => {
  const scratch = await Deno.makeTempDir({ prefix: "proto_upstream_enum_" });
  try {
    await copyContract(
      scratch,
      (text) => text.replace("MIGRATION_MODE_DISTRIBUTED_PASSTHROUGH = 3;", "reserved 3;"),
    );
    const { code, output } = await buf(
      "breaking",
      scratch,
      "--against",
      UPSTREAM_SOURCES[0]!.image,
    );
    assert.notEqual(code, 0, output);
    assert.match(output, /MIGRATION_MODE_DISTRIBUTED_PASSTHROUGH|"3"/);
    assert.doesNotMatch(output, /go_package/);
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
});
