/**
 * The repository's real import graph, as `deno info --json` resolves it
 * (static, dynamic and type-only imports; never the imports inside comments or
 * doc examples), for the tests that keep the architecture's boundaries.
 *
 * @module
 */
import { join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { denoBinary } from "./deno_bin.ts";

/** The repository root. */
export const ROOT: string = fileURLToPath(new URL("../../", import.meta.url));

/** One import of one module. */
export interface ImportEdge {
  /** The importing file, relative to the root: `src/state/namespace_state.ts`. */
  readonly from: string;
  /** Line of the import in `from`, from 1. */
  readonly line: number;
  /** The specifier as written: `../store/store.ts`, `etcd3`. */
  readonly specifier: string;
  /**
   * What it resolves to: a path relative to the root for a file under it
   * (`src/store/store.ts`), `npm:<package>` without the version (`npm:etcd3`),
   * or the resolved specifier (`node:path`, a URL outside the root).
   */
  readonly target: string;
}

/** Options of {@linkcode importGraph}. */
export interface ImportGraphOptions {
  /** Paths are relative to this folder. @default {ROOT} */
  readonly root?: string;
  /** The config whose import map resolves bare specifiers. @default {`${ROOT}deno.json`} */
  readonly config?: string;
}

interface InfoDependency {
  readonly specifier: string;
  readonly code?: { readonly specifier?: string; readonly error?: string; readonly span: Span };
  readonly type?: { readonly specifier?: string; readonly error?: string; readonly span: Span };
}
interface Span {
  readonly start: { readonly line: number };
}
interface InfoModule {
  readonly specifier: string;
  readonly local?: string;
  readonly dependencies?: readonly InfoDependency[];
}

async function* typescriptFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* typescriptFiles(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

function packageOf(resolved: string): string {
  const npm = /^npm:\/?((?:@[^/@]+\/)?[^/@]+)/.exec(resolved);
  return npm ? `npm:${npm[1]}` : resolved;
}

/**
 * Every import of every `.ts` file under `dirs` (relative to the root). Throws
 * when an import does not resolve.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { importGraph } from "./import_graph.ts";
 *
 * const edges = await importGraph(["src/store/etcd"]);
 * assert.ok(edges.some((e) => e.target === "npm:etcd3"));
 * ```
 */
export async function importGraph(
  dirs: readonly string[],
  options: ImportGraphOptions = {},
): Promise<ImportEdge[]> {
  const root = resolve(options.root ?? ROOT);
  const files = new Set<string>();
  for (const dir of dirs) {
    for await (const file of typescriptFiles(resolve(root, dir))) files.add(file);
  }
  const scratch = await Deno.makeTempDir({ prefix: "sm-import-graph-" });
  try {
    const entry = join(scratch, "entry.ts");
    await Deno.writeTextFile(
      entry,
      [...files].map((file) => `import ${JSON.stringify(pathToFileURL(file).href)};\n`).join(""),
    );
    const { code, stdout, stderr } = await new Deno.Command(denoBinary(), {
      args: ["info", "--json", "--config", options.config ?? join(ROOT, "deno.json"), entry],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (code !== 0) throw new Error(`deno info failed: ${new TextDecoder().decode(stderr)}`);
    const modules = (JSON.parse(new TextDecoder().decode(stdout)) as { modules: InfoModule[] })
      .modules;
    const name = (resolved: string) => {
      if (!resolved.startsWith("file:")) return packageOf(resolved);
      const path = relative(root, fileURLToPath(resolved));
      return path.startsWith("..") ? resolved : path;
    };
    const edges: ImportEdge[] = [];
    for (const module of modules) {
      if (module.local === undefined || !files.has(module.local)) continue;
      const from = relative(root, module.local);
      for (const dependency of module.dependencies ?? []) {
        for (const resolution of [dependency.code, dependency.type]) {
          if (resolution === undefined) continue;
          if (resolution.specifier === undefined) {
            throw new Error(`${from} imports ${dependency.specifier}: ${resolution.error}`);
          }
          edges.push({
            from,
            line: resolution.span.start.line + 1,
            specifier: dependency.specifier,
            target: name(resolution.specifier),
          });
        }
      }
    }
    return edges;
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
}

/** `from:line imports specifier`, for failure messages. */
export function describeEdge(edge: ImportEdge): string {
  return `${edge.from}:${edge.line} imports ${edge.specifier}`;
}

/**
 * The cycles of a directed graph: one per strongly connected component of
 * more than one node (or a node that points at itself), each shown as one
 * closed path through it, starting and ending at its smallest node; sorted.
 * A component holds every node of its cycles, so breaking the path shown may
 * leave a longer one to report next.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findCycles } from "./import_graph.ts";
 *
 * const next = new Map([["a", ["b"]], ["b", ["a", "c"]], ["c", []]]);
 * assert.deepEqual(findCycles(next), [["a", "b", "a"]]);
 * ```
 */
export function findCycles(next: ReadonlyMap<string, Iterable<string>>): string[][] {
  // Tarjan's strongly connected components, iterative so deep graphs cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  for (const start of [...next.keys()].sort()) {
    if (index.has(start)) continue;
    const work: { node: string; targets: Iterator<string> }[] = [];
    const open = (node: string) => {
      index.set(node, index.size);
      low.set(node, index.get(node)!);
      stack.push(node);
      onStack.add(node);
      work.push({ node, targets: (next.get(node) ?? [])[Symbol.iterator]() });
    };
    open(start);
    while (work.length > 0) {
      const top = work.at(-1)!;
      const step = top.targets.next();
      if (!step.done) {
        const to = step.value;
        if (!index.has(to)) open(to);
        else if (onStack.has(to)) low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) !== index.get(top.node)) continue;
      const component: string[] = [];
      let node: string;
      do {
        node = stack.pop()!;
        onStack.delete(node);
        component.push(node);
      } while (node !== top.node);
      const selfLoop = [...(next.get(top.node) ?? [])].includes(top.node);
      if (component.length > 1 || selfLoop) components.push(component);
    }
  }
  return components.map((component) => cycleThrough(component, next)).sort((a, b) =>
    a.join("\n") < b.join("\n") ? -1 : 1
  );
}

/** The shortest closed path from the smallest node of `component` back to it, inside it. */
function cycleThrough(
  component: readonly string[],
  next: ReadonlyMap<string, Iterable<string>>,
): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let at = 0; at < queue.length; at++) {
    const node = queue[at]!;
    for (const to of [...(next.get(node) ?? [])].sort()) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let back = node; back !== start; back = cameFrom.get(back)!) path.splice(1, 0, back);
        return [...path, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  throw new Error(`no cycle through ${start} inside its component`); // cannot happen
}

/**
 * The import cycles between files among `edges` ({@linkcode findCycles} of
 * the file graph), each as `a.ts → b.ts → a.ts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fileCycles } from "./import_graph.ts";
 *
 * const edge = (from: string, target: string) => ({ from, line: 1, specifier: target, target });
 * assert.deepEqual(fileCycles([edge("a.ts", "b.ts"), edge("b.ts", "a.ts")]), [
 *   "a.ts → b.ts → a.ts",
 * ]);
 * ```
 */
export function fileCycles(edges: readonly ImportEdge[]): string[] {
  const next = new Map<string, Set<string>>();
  for (const e of edges) {
    if (!next.has(e.from)) next.set(e.from, new Set());
    next.get(e.from)!.add(e.target);
  }
  return findCycles(next).map((cycle) => cycle.join(" → "));
}
