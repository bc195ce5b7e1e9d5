/**
 * The architecture's boundaries, read from the real import graph (`deno info`,
 * so type-only and dynamic imports count and imports in doc examples do not):
 * ports and adapters (STYLE.md 2) and the one dependency direction of
 * docs/architecture.md ("Layers"). A failure names each offending file, line
 * and import.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  describeEdge,
  fileCycles,
  findCycles,
  type ImportEdge,
  importGraph,
  ROOT,
} from "./support/import_graph.ts";

/**
 * Server areas from the top of the dependency direction down
 * (docs/architecture.md): an area may import areas on its own rank or below,
 * never above.
 */
const RANKS: readonly (readonly string[])[] = [
  ["(root)"], // src/*.ts: the composition root (app.ts, main.ts, open_stores.ts)
  ["transport/grpc", "transport/http", "metrics"],
  ["service"],
  ["namespace"],
  ["leader/election", "leader/process", "routing", "heartbeat"],
  ["policy"],
  ["plan", "state"],
  ["store"], // the ports: src/store/*.ts
  // The foundation, importable from every rank above, importing nothing above it:
  ["core", "streams", "config", "limits", "security", "loadbalancer", "placement", "shared"],
];
const ADAPTERS = ["store/etcd", "store/embedded"];
const CLIENT_SIDE = ["client", "smctl"];
const WIRE = "wire";

/** Imports that break a rule below, reported in issue #14 and not fixed yet. */
const KNOWN_VIOLATIONS: readonly string[] = [];

/**
 * The area of a path under src/: `src/store/etcd/client.ts` → `store/etcd`,
 * `src/transport/http/dashboard/state.ts` → `transport/http`, `src/app.ts` →
 * `(root)`; undefined outside src/.
 */
function areaOf(path: string): string | undefined {
  const parts = path.split("/");
  if (parts[0] !== "src") return undefined;
  if (parts.length === 2) return "(root)";
  if (["store", "transport", "leader"].includes(parts[1]!) && parts.length > 3) {
    return `${parts[1]}/${parts[2]}`;
  }
  return parts[1];
}

function rankOf(area: string): number {
  return RANKS.findIndex((rank) => rank.includes(area));
}

function isGrpcPackage(target: string): boolean {
  return target.startsWith("npm:@grpc/") || target === "npm:grpc-health-check";
}

/** The SDK package: a workspace member whose entry points re-export src/client/. */
const SDK_PACKAGE = "packages/sdk/";
/** The test kit: a workspace member that runs the service in-process for applications' tests. */
const TEST_KIT = "packages/testing/";

let graph: Promise<ImportEdge[]> | undefined;
/** The graph of src/, the SDK package and examples/, read once per test run (each test may run alone). */
function edges(): Promise<ImportEdge[]> {
  return graph ??= importGraph(["src", "packages", "examples"]);
}

function key(edge: ImportEdge): string {
  return `${edge.from} imports ${edge.specifier}`;
}

/** Fails with every offending import, apart from the known ones. */
function assertNone(offenders: readonly ImportEdge[], rule: string): void {
  const unknown = offenders.filter((edge) => !KNOWN_VIOLATIONS.includes(key(edge)));
  assert.deepEqual(
    unknown.map(describeEdge),
    [],
    `${rule}:\n${unknown.map(describeEdge).join("\n")}`,
  );
}

Deno.test("only src/store/etcd/ imports etcd3, its tests included", async () => {
  const all = await edges();
  assert.ok(all.some((e) => e.target === "npm:etcd3"), "the graph shows no etcd3 import at all");
  assertNone(
    all.filter((e) => e.target === "npm:etcd3" && areaOf(e.from) !== "store/etcd"),
    "etcd3 imported outside src/store/etcd/",
  );
});

Deno.test("only src/transport/grpc/, src/wire/ and the client side (src/client/, src/smctl/) import gRPC packages", async () => {
  const allowed = ["transport/grpc", WIRE, ...CLIENT_SIDE];
  assertNone(
    (await edges()).filter((e) =>
      isGrpcPackage(e.target) && !allowed.includes(areaOf(e.from) ?? "")
    ),
    "@grpc/* or grpc-health-check imported outside transport/grpc, wire, client and smctl",
  );
});

Deno.test("every folder of src/ has a place in the dependency direction", async () => {
  const known = [...RANKS.flat(), ...ADAPTERS, ...CLIENT_SIDE, WIRE];
  const areas = new Set((await edges()).map((e) => areaOf(e.from)).filter((a) => a !== undefined));
  const unplaced = [...areas].filter((area) => !known.includes(area));
  assert.deepEqual(unplaced, [], "add them to RANKS (and to docs/architecture.md)");
});

Deno.test("no server folder imports one above it in the dependency direction", async () => {
  const offenders = (await edges()).filter((e) => {
    const from = areaOf(e.from);
    const to = areaOf(e.target);
    if (from === undefined || to === undefined || from === to) return false;
    const [rankFrom, rankTo] = [rankOf(from), rankOf(to)];
    return rankFrom >= 0 && rankTo >= 0 && rankTo < rankFrom;
  });
  assertNone(
    offenders,
    "imports against transport → service → (leader, routing, heartbeat) → state → store",
  );
});

Deno.test("store adapters import only the store ports and the foundation, and only the composition root imports them", async () => {
  const foundation = RANKS.at(-1)!;
  const offenders = (await edges()).filter((e) => {
    const from = areaOf(e.from);
    const to = areaOf(e.target);
    if (from === undefined || to === undefined || from === to) return false;
    if (ADAPTERS.includes(from)) return !(to === "store" || foundation.includes(to));
    return ADAPTERS.includes(to) && from !== "(root)";
  });
  assertNone(offenders, "store ports ← store adapters");
});

/** The areas that reach the service from outside it: the transport and the metrics. */
const SERVICE_CALLERS = ["transport/grpc", "transport/http", "metrics"];

/**
 * Imports of the service from its callers that bypass `src/service/mod.ts`
 * (its narrow use cases, service/use_cases.ts).
 */
function pastServiceMod(all: readonly ImportEdge[]): ImportEdge[] {
  return all.filter((e) =>
    SERVICE_CALLERS.includes(areaOf(e.from) ?? "") && areaOf(e.target) === "service" &&
    e.target !== "src/service/mod.ts"
  );
}

Deno.test("the transport and the metrics import the service only through src/service/mod.ts", async () => {
  const all = await edges();
  assert.ok(
    all.some((e) => areaOf(e.from) === "transport/grpc" && e.target === "src/service/mod.ts"),
    "the graph shows no import of the service by the transport at all",
  );
  assertNone(pastServiceMod(all), "the service's way in is its mod.ts");
});

Deno.test("the service's way in is enforced: an import past service/mod.ts is caught", async () => {
  const dir = await Deno.makeTempDir({ prefix: "sm-service-mod-" });
  try {
    await Deno.mkdir(join(dir, "src", "service"), { recursive: true });
    await Deno.mkdir(join(dir, "src", "transport", "grpc"), { recursive: true });
    await Deno.writeTextFile(join(dir, "src", "service", "registry.ts"), "export const r = 1;\n");
    await Deno.writeTextFile(
      join(dir, "src", "service", "mod.ts"),
      'export { r } from "./registry.ts";\n',
    );
    await Deno.writeTextFile(
      join(dir, "src", "transport", "grpc", "ok.ts"),
      'import { r } from "../../service/mod.ts";\nexport const a = r;\n',
    );
    await Deno.writeTextFile(
      join(dir, "src", "transport", "grpc", "bad.ts"),
      'import { r } from "../../service/registry.ts";\nexport const b = r;\n',
    );
    const offenders = pastServiceMod(await importGraph(["src"], { root: dir }));
    assert.deepEqual(offenders.map((e) => `${e.from} → ${e.target}`), [
      "src/transport/grpc/bad.ts → src/service/registry.ts",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * Folders of src/ without a `mod.ts`, and why: every other folder's way in is
 * its `mod.ts`, which says what the folder offers.
 */
const NO_MOD: Readonly<Record<string, string>> = {
  "src": "the composition root: app.ts and main.ts are programs, not a library",
  "src/client/common": "internals shared by the SDKs; each SDK's mod.ts is the way in",
  "src/core": "the foundation: small independent modules imported one by one, so that a file " +
    "importing the clock does not load the errors, types and logger too",
  "src/leader": "two areas of their own, election/ and process/",
  "src/leader/election": "one file, election_loop.ts, used only by namespace/namespace_runtime.ts",
  "src/leader/process": "a leader's term, run only by namespace/namespace_runtime.ts " +
    "(leader_term.ts is its entry)",
  "src/limits": "two independent modules (request limits and their validation)",
  "src/metrics": "the Prometheus adapter (prometheus_metrics.ts, with its gauges), built only by " +
    "app.ts",
  "src/policy": "one module, namespace_policy.ts",
  "src/smctl": "a program (main.ts), not a library",
  "src/state": "a namespace's picture: namespace_cache.ts (followed) and namespace_view.ts " +
    "(read) are its entries",
  "src/streams": "generic Web Streams helpers imported one by one",
  "src/transport": "two adapters of their own, grpc/ and http/",
  "src/transport/grpc": "an adapter built only by app.ts (server.ts is its entry)",
  "src/transport/http": "an adapter built only by app.ts (http_server.ts is its entry)",
  "src/wire": "the generated contract: proto.ts is its entry (docs/architecture.md)",
};

Deno.test("every folder of src/ has a way in (mod.ts) or says why not", async () => {
  const folders: string[] = [];
  const walk = async (dir: string) => {
    folders.push(dir);
    for await (const entry of Deno.readDir(join(ROOT, dir))) {
      if (entry.isDirectory) await walk(`${dir}/${entry.name}`);
    }
  };
  await walk("src");
  const without: string[] = [];
  for (const dir of folders) {
    if (dir.startsWith("src/wire/gen")) continue; // generated
    const hasMod = await Deno.stat(join(ROOT, dir, "mod.ts")).then(() => true, () => false);
    if (!hasMod && NO_MOD[dir] === undefined) without.push(dir);
    if (hasMod && NO_MOD[dir] !== undefined) without.push(`${dir} (has a mod.ts: drop its reason)`);
  }
  assert.deepEqual(without, [], `folders with no mod.ts and no reason:\n${without.join("\n")}`);
  for (const dir of Object.keys(NO_MOD)) assert.ok(folders.includes(dir), `${dir} is gone`);
});

Deno.test("src/wire/ imports nothing else from src/, and on the server side only src/transport/grpc/ imports it", async () => {
  const offenders = (await edges()).filter((e) => {
    const from = areaOf(e.from);
    const to = areaOf(e.target);
    if (from === undefined || to === undefined || from === to) return false;
    if (from === WIRE) return true;
    return to === WIRE && !["transport/grpc", "(root)", ...CLIENT_SIDE].includes(from);
  });
  assertNone(offenders, "wire is the contract between transport/grpc and the clients");
});

Deno.test("the client side imports no server code, and the server imports no client code", async () => {
  // placement: pure owner-set functions (README, SDKs); shared: durations (configuration, smctl)
  const shared = ["client", WIRE, "placement", "shared"];
  const offenders = (await edges()).filter((e) => {
    const from = areaOf(e.from);
    const to = areaOf(e.target);
    if (from === undefined || to === undefined || from === to) return false;
    if (CLIENT_SIDE.includes(from)) return !shared.includes(to);
    return CLIENT_SIDE.includes(to);
  });
  assertNone(offenders, "client SDKs and smctl are separate from the server");
});

Deno.test("src/placement/ and src/shared/, which the client side imports, import nothing else from src/ and no package", async () => {
  const offenders = (await edges()).filter((e) => {
    const from = areaOf(e.from) ?? "";
    // Their tests may use test tools (assertions, fast-check), never other code of src/.
    const testTool = e.from.endsWith("_test.ts") && areaOf(e.target) === undefined;
    return ["placement", "shared"].includes(from) && areaOf(e.target) !== from &&
      !e.target.startsWith("node:assert") && !testTool;
  });
  assertNone(offenders, "placement and shared must stay pure and importable by clients");
});

Deno.test("src/plan/ (tests aside) imports no store types: a plan is plain data", async () => {
  const offenders = (await edges()).filter((e) =>
    areaOf(e.from) === "plan" && !e.from.endsWith("_test.ts") &&
    ["store", ...ADAPTERS].includes(areaOf(e.target) ?? "")
  );
  assertNone(offenders, "planPass takes a PlanInput and returns a Plan, with no store types");
});

Deno.test("the SDK package re-exports src/client/ and imports nothing else", async () => {
  const all = await edges();
  assert.ok(all.some((e) => e.from.startsWith(SDK_PACKAGE)), "no import from packages/sdk/ found");
  assertNone(
    all.filter((e) => e.from.startsWith(SDK_PACKAGE) && !e.target.startsWith("src/client/")),
    "packages/sdk/ is the client SDKs' entry points",
  );
});

Deno.test("examples import only the SDK package, each other and packages, never server code", async () => {
  const offenders = (await edges()).filter((e) =>
    e.from.startsWith("examples/") &&
    !(e.target.startsWith("npm:") || e.target.startsWith("node:") ||
      e.target.startsWith("examples/") || e.target.startsWith(SDK_PACKAGE) ||
      // An example's own tests use the test kit, which runs the service in-process.
      (e.from.endsWith("_test.ts") && e.target.startsWith(TEST_KIT)))
  );
  assert.ok(
    (await edges()).some((e) => e.from.startsWith("examples/")),
    "no example imports found",
  );
  assertNone(offenders, "examples show the SDKs as an application uses them");
});

Deno.test("only tests import the test kit: the SDK, the server and the examples' programs never do", async () => {
  const all = await edges();
  assert.ok(all.some((e) => e.target.startsWith(TEST_KIT)), "nothing imports packages/testing/");
  assertNone(
    all.filter((e) =>
      e.target.startsWith(TEST_KIT) && !e.from.startsWith(TEST_KIT) && !e.from.endsWith("_test.ts")
    ),
    "packages/testing/ is for tests",
  );
});

Deno.test("the area graph of src/ has no cycles (tests aside)", async () => {
  const next = new Map<string, Set<string>>();
  for (const e of await edges()) {
    const from = areaOf(e.from);
    const to = areaOf(e.target);
    if (from === undefined || to === undefined || from === to || e.from.endsWith("_test.ts")) {
      continue;
    }
    if (!next.has(from)) next.set(from, new Set());
    next.get(from)!.add(to);
  }
  assert.deepEqual(findCycles(next).map((cycle) => cycle.join(" → ")), []);
});

Deno.test("no files of src/ or packages/ import each other, directly or in a ring", async () => {
  const ours = (await edges()).filter((e) => !e.from.startsWith("examples/"));
  const cycles = fileCycles(ours);
  assert.deepEqual(
    cycles,
    [],
    `move what the files share into a file of its own:\n${cycles.join("\n")}`,
  );
});

Deno.test("findCycles reports each ring once, from its smallest node, and nothing for a chain", () => {
  const next = new Map<string, string[]>([
    ["a", ["b"]], // a ↔ b
    ["b", ["a", "c"]],
    ["c", ["d"]], // c → d → e → c, entered from b
    ["d", ["e"]],
    ["e", ["c", "f"]],
    ["f", []], // a chain out of the ring
    ["g", ["g"]], // imports itself
    ["h", ["a"]], // leads into a ring, is not in one
  ]);
  assert.deepEqual(findCycles(next), [["a", "b", "a"], ["c", "d", "e", "c"], ["g", "g"]]);
  assert.deepEqual(findCycles(new Map([["x", ["y"]], ["y", ["z"]]])), []);
});

Deno.test("the file-cycle check catches two files that import each other, type-only included", async () => {
  const dir = await Deno.makeTempDir({ prefix: "sm-import-cycle-" });
  try {
    await Deno.mkdir(join(dir, "lib"));
    await Deno.writeTextFile(
      join(dir, "lib", "heap.ts"),
      'import type { Load } from "./cells.ts";\nexport const least = (l: Load[]) => l[0];\n',
    );
    await Deno.writeTextFile(
      join(dir, "lib", "cells.ts"),
      'import { least } from "./heap.ts";\nexport interface Load { id: string }\n' +
        "export const pick = least;\n",
    );
    await Deno.writeTextFile(join(dir, "lib", "free.ts"), 'import "./cells.ts";\n');
    assert.deepEqual(fileCycles(await importGraph(["lib"], { root: dir })), [
      "lib/cells.ts → lib/heap.ts → lib/cells.ts",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the known violations are still violations (remove them from the list once fixed)", async () => {
  const present = new Set((await edges()).map(key));
  assert.deepEqual(KNOWN_VIOLATIONS.filter((v) => !present.has(v)), []);
});

Deno.test("importGraph sees every import form, type-only and dynamic ones included", async () => {
  const dir = await Deno.makeTempDir({ prefix: "sm-import-forms-" });
  try {
    await Deno.mkdir(join(dir, "a"));
    for (const name of ["b.ts", "c.ts", "d.ts", "e.ts", "f.ts"]) {
      await Deno.writeTextFile(join(dir, name), "export const x = 1;\nexport type T = number;\n");
    }
    await Deno.writeTextFile(
      join(dir, "a", "x.ts"),
      [
        'import { x } from "../b.ts";',
        'import type { T } from "../c.ts";',
        'export * from "../d.ts";',
        'import "../e.ts";',
        'const m = await import("../f.ts");',
        'import { Etcd3 } from "etcd3";',
        '/** ```ts\n * import "../g.ts";\n * ``` */',
        "export const y: T = x + m.x; export { Etcd3 };",
      ].join("\n"),
    );
    const found = (await importGraph(["a"], { root: dir }))
      .map((e) => `${e.line} ${e.specifier} ${e.target}`);
    assert.deepEqual(found.sort(), [
      "1 ../b.ts b.ts",
      "2 ../c.ts c.ts",
      "3 ../d.ts d.ts",
      "4 ../e.ts e.ts",
      "5 ../f.ts f.ts",
      "6 etcd3 npm:etcd3",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
