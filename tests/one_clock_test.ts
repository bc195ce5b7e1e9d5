/**
 * One clock (STYLE.md 16): every timer and wait in src/ goes through the
 * injected `Clock` (src/core/clock.ts: `startTimer`, `sleep`,
 * `timeoutSignal`) or, on the client side, the SDKs' `TimerClock`
 * (src/client/common/clock.ts), so a test can drive time and nothing waits on
 * the wall clock by accident. This reads every file's syntax tree (with
 * `Deno.lint.runPlugin`, so comments, doc examples and strings never count)
 * and fails on a global timer outside the clock adapters and the exceptions
 * below, each with its reason. Tests (`*_test.ts`) and generated code are not
 * checked.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { ROOT } from "./support/import_graph.ts";

/** Global functions that set or clear a timer. */
const TIMER_FUNCTIONS = new Set(["setTimeout", "setInterval", "clearTimeout", "clearInterval"]);
/** Timers reached through an object: `Deno.unrefTimer(id)`, `AbortSignal.timeout(ms)`. */
const TIMER_MEMBERS = new Set(["Deno.unrefTimer", "Deno.refTimer", "AbortSignal.timeout"]);
/** Names of the global object: `globalThis.setTimeout` is the global timer too. */
const GLOBAL_OBJECTS = new Set(["globalThis", "window", "self"]);

/** Files that may use the global timers, and why. */
const ALLOWED: Readonly<Record<string, string>> = {
  "src/core/clock.ts": "the server's clock adapter: systemClock is the global timers",
  "src/client/common/clock.ts": "the SDKs' clock adapter: monotonicClock and wallClock",
  "src/core/event_loop_turn.ts":
    "nextTurn lets the real thread go (a setTimeout of 0), also under a fake clock: " +
    "what it waits for is the event loop, not time",
};

const plugin: Deno.lint.Plugin = {
  name: "one-clock",
  rules: {
    "no-global-timer": {
      create(context) {
        const report = (node: Deno.lint.Node, what: string) =>
          context.report({ node, message: `${what} is a global timer: use the injected Clock` });
        return {
          Identifier(node) {
            if (!TIMER_FUNCTIONS.has(node.name)) return;
            const parent = node.parent;
            if (parent.type === "MemberExpression" && parent.property === node) {
              // `clock.setTimeout(...)` is the clock's; only the global object's counts.
              const object = parent.object;
              if (object.type === "Identifier" && GLOBAL_OBJECTS.has(object.name)) {
                report(parent, `${object.name}.${node.name}`);
              }
              return;
            }
            // A key naming a clock's method (`{ setTimeout: ... }`, `setTimeout?(...)`); in
            // `{ setTimeout }` the value, a node of its own, is the global.
            const isKey = (parent.type === "Property" && parent.key === node) ||
              ((parent.type === "MethodDefinition" || parent.type === "PropertyDefinition" ||
                parent.type === "TSPropertySignature" || parent.type === "TSMethodSignature") &&
                parent.key === node);
            if (!isKey) report(node, node.name);
          },
          MemberExpression(node) {
            const { object, property } = node;
            if (object.type !== "Identifier" || property.type !== "Identifier") return;
            const name = `${object.name}.${property.name}`;
            if (TIMER_MEMBERS.has(name)) report(node, name);
          },
        };
      },
    },
  },
};

/** Each global timer in `source`, as `line: what`. */
function globalTimers(fileName: string, source: string): string[] {
  const lineOf = (offset: number) => source.slice(0, offset).split("\n").length;
  return Deno.lint.runPlugin(plugin, fileName, source).map((d) =>
    `${lineOf(d.range[0])}: ${d.message}`
  );
}

async function* sourceFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* sourceFiles(path);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) yield path;
  }
}

/** Every global timer in src/, by file relative to the root. */
async function timersBySrcFile(): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for await (const file of sourceFiles(join(ROOT, "src"))) {
    const path = relative(ROOT, file);
    if (path.startsWith("src/wire/gen/")) continue;
    const timers = globalTimers(path, await Deno.readTextFile(file));
    if (timers.length > 0) found.set(path, timers);
  }
  return found;
}

Deno.test("no code in src/ sets a global timer outside the clock adapters and the listed exceptions", async () => {
  const offenders: string[] = [];
  for (const [path, timers] of await timersBySrcFile()) {
    if (path in ALLOWED) continue;
    for (const timer of timers) offenders.push(`${path}:${timer}`);
  }
  assert.deepEqual(
    offenders,
    [],
    `Go through the Clock (startTimer, sleep, timeoutSignal in src/core/clock.ts; ` +
      `client/common/clock.ts on the client side), or list the file with its reason:\n` +
      offenders.join("\n"),
  );
});

Deno.test("every exception to the one clock is still needed", async () => {
  const found = await timersBySrcFile();
  const unneeded = Object.keys(ALLOWED).filter((path) => !found.has(path));
  assert.deepEqual(unneeded, [], "these files use no global timer any more: unlist them");
});

Deno.test("the clock check catches global timers and ignores the clock's, comments and strings", () => {
  const sample = [
    "const a = setTimeout(() => {}, 10);", // 1: a global timer
    "clearTimeout(a);", // 2
    "await new Promise((resolve) => setTimeout(resolve, 100));", // 3: an ad-hoc sleep
    "const ticker = setInterval(() => {}, 1_000);", // 4
    "globalThis.clearInterval(ticker);", // 5
    "Deno.unrefTimer(a);", // 6
    "const late = AbortSignal.timeout(5_000);", // 7
    "let handle: ReturnType<typeof setTimeout>;", // 8: a global timer's type
    "const timers = { setTimeout };", // 9: handed on as a value
    "// setTimeout(resolve, 100) in a comment", // 10: not code
    "const text = 'setInterval(f, 1)';", // 11: a string
    "clock.setTimeout(() => {}, 10); clock.clearTimeout(handle);", // 12: the clock's timers
    "const port = { setTimeout: (f: () => void, ms: number) => clock.setTimeout(f, ms) };", // 13
    "interface C { setTimeout?(f: () => void, ms: number): unknown }", // 14
    "/** ```ts\n * setTimeout(r, 5);\n * ``` */", // 15-17: a doc example
  ].join("\n");
  assert.deepEqual(globalTimers("sample.ts", sample), [
    "1: setTimeout is a global timer: use the injected Clock",
    "2: clearTimeout is a global timer: use the injected Clock",
    "3: setTimeout is a global timer: use the injected Clock",
    "4: setInterval is a global timer: use the injected Clock",
    "5: globalThis.clearInterval is a global timer: use the injected Clock",
    "6: Deno.unrefTimer is a global timer: use the injected Clock",
    "7: AbortSignal.timeout is a global timer: use the injected Clock",
    "8: setTimeout is a global timer: use the injected Clock",
    "9: setTimeout is a global timer: use the injected Clock",
  ]);
});
