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
