/**
 * Reading V8 `.cpuprofile` files (`deno run --cpu-prof`): the functions that
 * took the most self time, as evidence for what limits a figure.
 *
 * @module
 */

interface ProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
  };
}

interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** A function's share of the profile. */
export interface HotFunction {
  /** `name (file:line)`, the file shortened to the repository or package path. */
  readonly where: string;
  /** Share of all sampled time, 0..1. */
  readonly share: number;
}

function shorten(url: string): string {
  if (url === "") return "native";
  const npm = /\/npm\/registry\.npmjs\.org\/(.+)$/.exec(url);
  if (npm) return `npm:${npm[1]}`;
  const repo = url.indexOf("/src/");
  if (repo >= 0) return url.slice(repo + 1);
  return url.replace(/^file:\/\//, "").replace(/^ext:/, "ext:");
}

/**
 * The `top` functions by self time in a `.cpuprofile` file; idle time
 * (`(idle)`, `(program)`) is left out of the shares.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hotFunctions } from "./cpu_profile.ts";
 *
 * const path = await Deno.makeTempFile({ suffix: ".cpuprofile" }); // as `deno run --cpu-prof` writes
 * const frame = (functionName: string, lineNumber: number) =>
 *   ({ functionName, url: "file:///repo/src/app.ts", lineNumber });
 * await Deno.writeTextFile(path, JSON.stringify({
 *   nodes: [{ id: 1, callFrame: frame("(idle)", 0) }, { id: 2, callFrame: frame("plan", 9) }],
 *   samples: [1, 2, 2],
 *   timeDeltas: [50, 30, 10],
 * }));
 * assert.deepEqual(await hotFunctions(path), [{ where: "plan (src/app.ts:10)", share: 1 }]);
 * await Deno.remove(path);
 * ```
 */
export async function hotFunctions(path: string, top = 12): Promise<HotFunction[]> {
  const profile = JSON.parse(await Deno.readTextFile(path)) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node) return;
    const name = node.callFrame.functionName || "(anonymous)";
    if (name === "(idle)" || name === "(program)") return;
    const dt = profile.timeDeltas[i] ?? 0;
    const where = `${name} (${shorten(node.callFrame.url)}:${node.callFrame.lineNumber + 1})`;
    self.set(where, (self.get(where) ?? 0) + dt);
    total += dt;
  });
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, top)
    .map(([where, t]) => ({ where, share: total === 0 ? 0 : t / total }));
}

function component(name: string, url: string): string {
  if (name === "(garbage collector)") return "garbage collector";
  if (url.includes("@grpc/grpc-js") || url.includes("@grpc/proto-loader")) return "grpc-js";
  if (url.includes("protobufjs")) return "protobufjs codec";
  // protobufjs generates its encoders and decoders at run time: they have no file.
  if (url === "" && /\$(encode|decode|fromObject|toObject|verify)/.test(name)) {
    return "protobufjs codec";
  }
  if (url.includes("/etcd3/")) return "etcd3 client";
  if (url.includes("prom-client")) return "prom-client";
  if (/ext:deno_node\/(internal\/)?(http2|_http2|stream|_stream|net|buffer)/.test(url)) {
    return "Deno node:http2/net/streams/buffer";
  }
  const src = /\/src\/([a-z_]+)\//.exec(url);
  if (src && !url.includes("registry.npmjs.org")) return `src/${src[1]}`;
  if (url === "") return "native (I/O, ops)";
  return "other runtime JS";
}

/**
 * Self time of the newest profile in `dir` by component (grpc-js, protobufjs,
 * Deno's node:http2, each `src/<area>`, GC, ...), largest first.
 */
export async function profileBreakdown(dir: string): Promise<string> {
  const path = await newestProfile(dir);
  if (path === undefined) return "no CPU profile was written";
  const profile = JSON.parse(await Deno.readTextFile(path)) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const shares = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node) return;
    const name = node.callFrame.functionName;
    if (name === "(idle)" || name === "(program)") return;
    const dt = profile.timeDeltas[i] ?? 0;
    const key = component(name, node.callFrame.url);
    shares.set(key, (shares.get(key) ?? 0) + dt);
    total += dt;
  });
  return [...shares].sort((a, b) => b[1] - a[1]).slice(0, 10)
    .map(([k, t]) => `${k} ${((t / total) * 100).toFixed(0)}%`).join(", ");
}

/** The newest `.cpuprofile` in `dir`, if any. */
export async function newestProfile(dir: string): Promise<string | undefined> {
  let best: { path: string; mtime: number } | undefined;
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.name.endsWith(".cpuprofile")) continue;
      const path = `${dir}/${entry.name}`;
      const mtime = (await Deno.stat(path)).mtime?.getTime() ?? 0;
      if (!best || mtime > best.mtime) best = { path, mtime };
    }
  } catch { /* no directory: no profile */ }
  return best?.path;
}

/**
 * One line of evidence: the hottest functions of the newest profile in `dir`,
 * e.g. "`(garbage collector)` 21%, `encode (npm:protobufjs...)` 9%, ...".
 */
export async function profileEvidence(dir: string, top = 8): Promise<string> {
  const path = await newestProfile(dir);
  if (path === undefined) return "no CPU profile was written";
  const hot = await hotFunctions(path, top);
  return hot.map((f) => `\`${f.where}\` ${(f.share * 100).toFixed(1)}%`).join(", ") +
    `; by component: ${await profileBreakdown(dir)}`;
}
