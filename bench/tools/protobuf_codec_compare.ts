// deno-lint-ignore-file no-console -- a measurement tool prints its figures
/**
 * protobuf.js (what the SDK uses) against `@bufbuild/protobuf` (protobuf-es
 * v2) on the SDK's own messages, for the choice recorded in BENCHMARKS.md
 * ("Protobuf codec for the SDK").
 *
 * Speed: a heartbeat request and response with 100 and 1,000 shards and a
 * WatchNamespaceStateResponse snapshot with 1,000 shards (10 executors × 100
 * shards), encoded and decoded by
 * - `protobufjs (SDK path)`: what the SDK runs, `fromObject`+`encode` and
 *   `decode`+`toObject` with its conversion options (plain objects, int64 as
 *   strings, enums as names);
 * - `protobufjs (raw)`: `encode`/`decode` of message instances only;
 * - `@bufbuild/protobuf`: `toBinary`/`fromBinary` with descriptors loaded at
 *   run time from the contract's image (protobuf-es v2's generated code uses
 *   the same reflection codec, so this is its speed with generated code too);
 *   its messages carry int64 as `bigint` and enums as numbers.
 * Each operation runs in batches of at least 5 ms, the libraries take turns
 * batch by batch in one process, and the figure is the median time per
 * message of 31 batches.
 *
 * Size (`--sizes`; needs npm and the registry): each library installed alone
 * into an empty npm project (packages, bytes of node_modules, whether npm
 * warns about an install script; protobufjs 7, the SDK's, and 8, and
 * grpc-js for scale), and its bundled, minified bytes (esbuild) for what the
 * SDK uses of it.
 *
 * Run: `deno run -A bench/tools/protobuf_codec_compare.ts [--sizes]`
 *
 * @module
 */
import {
  create,
  createFileRegistry,
  type DescMessage,
  fromBinary,
  toBinary,
} from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import assert from "node:assert/strict";
import type { Buffer } from "node:buffer";
import { protobuf } from "../../src/wire/packages.ts";
import { contract } from "../../src/wire/gen/contract.ts";
import { PROTO_LOADER_OPTIONS } from "../../src/wire/proto.ts";
import { messageCodec } from "../../src/wire/service_definitions.ts";

const V1 = "uber.cadence.sharddistributor.v1";
const REPO = new URL("../../", import.meta.url);

/** The contract's image, built by buf (offline) from proto/. */
async function contractImage(): Promise<Uint8Array> {
  const out = await Deno.makeTempFile({ suffix: ".binpb" });
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "npm:@bufbuild/buf", "build", "proto", "-o", out],
    cwd: REPO,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (code !== 0) throw new Error(`buf build failed: ${new TextDecoder().decode(stderr)}`);
  const bytes = await Deno.readFile(out);
  await Deno.remove(out);
  return bytes;
}

function heartbeatRequest(shards: number): Record<string, unknown> {
  const reports: Record<string, unknown> = {};
  for (let i = 0; i < shards; i++) {
    reports[String(i)] = { status: "SHARD_STATUS_READY", shardLoad: 1 + (i % 7) / 10 };
  }
  return {
    namespace: "orders",
    executorId: "orders-executor-7f3a9c",
    status: "EXECUTOR_STATUS_ACTIVE",
    shardStatusReports: reports,
    metadata: { address: "10.0.0.5:8080" },
    appliedRevision: "123456789",
  };
}

function heartbeatResponse(shards: number): Record<string, unknown> {
  const assignments: Record<string, unknown> = {};
  for (let i = 0; i < shards; i++) {
    assignments[String(i)] = {
      status: "ASSIGNMENT_STATUS_READY",
      fencingToken: String(100_000 + i),
    };
  }
  return { shardAssignments: assignments, migrationMode: "MIGRATION_MODE_ONBOARDED" };
}

function watchSnapshot(executors: number, perExecutor: number): Record<string, unknown> {
  const list = [];
  for (let e = 0; e < executors; e++) {
    const shards = [];
    for (let s = 0; s < perExecutor; s++) shards.push({ shardKey: String(e * perExecutor + s) });
    list.push({ executorId: `executor-${e}`, metadata: { address: `10.0.0.${e}:8080` }, shards });
  }
  return { executors: list, revision: "987654321", isDelta: false };
}

/** Median nanoseconds per call of `f`, from samples taken in turns with the other cases. */
interface Case {
  readonly name: string;
  readonly run: () => unknown;
  batch: number;
  readonly samples: number[];
}

function calibrate(c: Case): void {
  c.batch = 1;
  for (;;) {
    const t = performance.now();
    for (let i = 0; i < c.batch; i++) c.run();
    if (performance.now() - t >= 5) return;
    c.batch *= 2;
  }
}

function measure(cases: Case[], rounds = 31): void {
  for (const c of cases) calibrate(c);
  for (let r = 0; r < rounds; r++) {
    for (const c of cases) {
      const t = performance.now();
      for (let i = 0; i < c.batch; i++) c.run();
      c.samples.push((performance.now() - t) * 1000 / c.batch);
    }
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function speed(): Promise<void> {
  const root = protobuf.Root.fromJSON(contract as protobuf.INamespace);
  root.resolveAll();
  const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, await contractImage()));
  const messages: [string, string, Record<string, unknown>][] = [
    ["HeartbeatRequest, 100 shards", "HeartbeatRequest", heartbeatRequest(100)],
    ["HeartbeatRequest, 1,000 shards", "HeartbeatRequest", heartbeatRequest(1_000)],
    ["HeartbeatResponse, 100 shards", "HeartbeatResponse", heartbeatResponse(100)],
    ["HeartbeatResponse, 1,000 shards", "HeartbeatResponse", heartbeatResponse(1_000)],
    [
      "WatchNamespaceStateResponse, 1,000 shards",
      "WatchNamespaceStateResponse",
      watchSnapshot(10, 100),
    ],
  ];
  console.log(
    `Deno ${Deno.version.deno}, V8 ${Deno.version.v8}; medians of 31 batches, µs per message\n`,
  );
  console.log("| message | bytes | codec | encode µs | decode µs |");
  console.log("| --- | ---: | --- | ---: | ---: |");
  for (const [label, typeName, plain] of messages) {
    const type = root.lookupType(`${V1}.${typeName}`);
    const codec = messageCodec<object, object>(type, PROTO_LOADER_OPTIONS);
    const bytes = codec.serialize(plain);
    const instance = type.decode(bytes);
    const schema = registry.getMessage(`${V1}.${typeName}`) as DescMessage;
    const esMessage = fromBinary(schema, bytes);
    const esBytes = toBinary(schema, create(schema, esMessage));
    // The same message both ways (protobuf.js also writes a scalar set to its default).
    assert.deepEqual(codec.deserialize(esBytes as Buffer), codec.deserialize(bytes), label);
    const cases: Case[] = [
      { name: "pbjs sdk encode", run: () => codec.serialize(plain), batch: 1, samples: [] },
      { name: "pbjs sdk decode", run: () => codec.deserialize(bytes), batch: 1, samples: [] },
      { name: "pbjs raw encode", run: () => type.encode(instance).finish(), batch: 1, samples: [] },
      { name: "pbjs raw decode", run: () => type.decode(bytes), batch: 1, samples: [] },
      { name: "es encode", run: () => toBinary(schema, esMessage), batch: 1, samples: [] },
      { name: "es decode", run: () => fromBinary(schema, bytes), batch: 1, samples: [] },
    ];
    measure(cases);
    const m = (name: string) => median(cases.find((c) => c.name === name)!.samples).toFixed(1);
    console.log(
      `| ${label} | ${bytes.length} | protobufjs (SDK path) | ${m("pbjs sdk encode")} | ${
        m("pbjs sdk decode")
      } |`,
    );
    console.log(`| | | protobufjs (raw) | ${m("pbjs raw encode")} | ${m("pbjs raw decode")} |`);
    console.log(`| | | @bufbuild/protobuf | ${m("es encode")} | ${m("es decode")} |`);
  }
}

async function run(cwd: string, command: string, args: string[]): Promise<string> {
  const { code, stdout, stderr } = await new Deno.Command(command, {
    args,
    cwd,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", npm_config_update_notifier: "false" },
  }).output();
  const text = new TextDecoder();
  if (code !== 0) throw new Error(`${command} ${args.join(" ")}: ${text.decode(stderr)}`);
  return text.decode(stdout) + text.decode(stderr);
}

async function treeBytes(dir: string): Promise<number> {
  let total = 0;
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) total += await treeBytes(path);
    else if (entry.isFile) total += (await Deno.stat(path)).size;
  }
  return total;
}

async function installedAlone(name: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "sm-codec-size-" });
  try {
    await Deno.writeTextFile(`${dir}/package.json`, '{"private":true}');
    const output = await run(dir, "npm", ["install", "--no-audit", "--no-fund", name]);
    const lock = JSON.parse(await Deno.readTextFile(`${dir}/package-lock.json`));
    const packages = Object.keys(lock.packages).filter((key) => key !== "").length;
    const bytes = await treeBytes(`${dir}/node_modules`);
    const warned = /install-scripts|postinstall/.test(output) ? "yes" : "no";
    return `| ${name} | ${packages} | ${(bytes / 1e6).toFixed(2)} MB | ${warned} |`;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const BUNDLES: Record<string, string> = {
  "protobufjs (light: Root.fromJSON, encode, decode, toObject)":
    `import protobuf from "protobufjs/light.js"; export const { Root, Type } = protobuf;`,
  "@bufbuild/protobuf (registry from an image, toBinary, fromBinary, create)":
    `export { create, createFileRegistry, fromBinary, toBinary } from "@bufbuild/protobuf";
export { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";`,
};

async function sizes(): Promise<void> {
  console.log("\n| installed alone | packages | node_modules | install-script warning |");
  console.log("| --- | ---: | ---: | --- |");
  for (
    const name of [
      "protobufjs@^7.5.0",
      "protobufjs@^8",
      "@bufbuild/protobuf@^2.17.0",
      "@grpc/grpc-js@^1.14.0",
    ]
  ) {
    console.log(await installedAlone(name));
  }
  const dir = await Deno.makeTempDir({ prefix: "sm-codec-bundle-" });
  try {
    await Deno.writeTextFile(`${dir}/package.json`, '{"private":true,"type":"module"}');
    await run(dir, "npm", [
      "install",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "protobufjs@^7.5.0",
      "@bufbuild/protobuf@^2.17.0",
      "esbuild@0.28.2",
    ]);
    console.log("\n| bundled and minified (esbuild, ESM, node) | bytes |");
    console.log("| --- | ---: |");
    for (const [label, source] of Object.entries(BUNDLES)) {
      await Deno.writeTextFile(`${dir}/entry.js`, source);
      await run(dir, "node", [
        "node_modules/esbuild/bin/esbuild",
        "entry.js",
        "--bundle",
        "--minify",
        "--platform=node",
        "--format=esm",
        "--outfile=out.js",
      ]);
      console.log(`| ${label} | ${(await Deno.stat(`${dir}/out.js`)).size} |`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

await speed();
if (Deno.args.includes("--sizes")) await sizes();
