import assert from "node:assert/strict";
import {
  HEAP_GROWTH_V8_FLAG,
  heapGrowingPercent,
  heapGrowthProblem,
  processV8FlagSources,
} from "./heap_growth.ts";

const ROOT = new URL("../", import.meta.url);
const read = (path: string) => Deno.readTextFileSync(new URL(path, ROOT));

Deno.test("heapGrowingPercent takes the last flag, --v8-flags after DENO_V8_FLAGS, 0 as none", () => {
  const run = (
    ...flags: string[]
  ) => ["deno", "run", "-A", ...flags, "src/main.ts", "--config", "x"];
  assert.equal(
    heapGrowingPercent({ commandLine: run("--v8-flags=--heap-growing-percent=50") }),
    50,
  );
  assert.equal(
    heapGrowingPercent({ commandLine: run("--v8-flags=--heap_growing_percent=40") }),
    40,
  );
  assert.equal(
    heapGrowingPercent({
      commandLine: run("--v8-flags=--heap-growing-percent=20"),
      env: "--heap-growing-percent=70",
    }),
    20,
  );
  assert.equal(
    heapGrowingPercent({
      commandLine: run(
        "--v8-flags=--max-old-space-size=900,--heap-growing-percent=30,--heap-growing-percent=60",
      ),
    }),
    60,
  );
  assert.equal(
    heapGrowingPercent({ commandLine: run(), env: "--heap-growing-percent=0" }),
    undefined,
  );
  assert.equal(
    heapGrowingPercent({ commandLine: run("--v8-flags=--heap-growing-percent=abc") }),
    undefined,
  );
  assert.equal(
    heapGrowingPercent({ commandLine: run("--heap-growing-percent=50") }),
    undefined,
    "not a V8 flag",
  );
});

Deno.test("heapGrowthProblem names the flag only when growth is unbounded and the process can tell", () => {
  assert.equal(heapGrowthProblem(undefined), undefined);
  const problem = heapGrowthProblem({ commandLine: ["deno", "run", "src/main.ts"] });
  assert.ok(problem?.includes(HEAP_GROWTH_V8_FLAG), String(problem));
  assert.equal(
    heapGrowthProblem({
      commandLine: ["deno", "run", `--v8-flags=${HEAP_GROWTH_V8_FLAG}`, "src/main.ts"],
    }),
    undefined,
  );
});

Deno.test("every launcher of the service bounds V8's heap growth", () => {
  const tasks = JSON.parse(read("deno.json")).tasks as Record<string, string>;
  // `deno task start` runs bin/shard-manager, which supervisors run directly.
  assert.equal(tasks.start, "bin/shard-manager");
  assert.ok(read("bin/shard-manager").includes(`--v8-flags=${HEAP_GROWTH_V8_FLAG}`));
  assert.ok(tasks["compile:service"]?.includes(`--v8-flags=${HEAP_GROWTH_V8_FLAG}`));
  assert.match(read("Dockerfile"), new RegExp(`^ENV DENO_V8_FLAGS=${HEAP_GROWTH_V8_FLAG}$`, "m"));
  assert.ok(read("examples/_shared/service.ts").includes(`--v8-flags=${HEAP_GROWTH_V8_FLAG}`));
});

/** Runs a script in a child Deno with these V8 flags: its first line of output, and the rest. */
async function child(flags: string[], env: Record<string, string>, code: string) {
  const script = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    await Deno.writeTextFile(script, code);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", ...flags, script],
      env,
      stdin: "null",
    }).output();
    const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    assert.equal(out.code, 0, text(out.stderr));
    // V8's traces go to standard output after the probe's one line.
    const [first = "", ...rest] = text(out.stdout).split("\n");
    return { answer: first, trace: rest.join("\n") + text(out.stderr) };
  } finally {
    await Deno.remove(script);
  }
}

Deno.test("a process reads its own flags, and V8 grows the heap by the factor they give", async () => {
  const probe = `
    import { heapGrowingPercent, processV8FlagSources } from ${
    JSON.stringify(new URL("./heap_growth.ts", import.meta.url).href)
  };
    const sources = processV8FlagSources();
    console.log(JSON.stringify(sources ? heapGrowingPercent(sources) ?? null : "unknown"));
    const junk = []; // enough old-generation work for a full collection or two
    for (let i = 0; i < 4_000_000; i++) junk.push({ i });
  `;
  if (processV8FlagSources() === undefined) return; // not Linux: nothing to read
  const flagged = await child([`--v8-flags=--trace-gc-verbose,${HEAP_GROWTH_V8_FLAG}`], {}, probe);
  assert.equal(flagged.answer, "50");
  // V8 itself honours it: its heap controller reports the factor (1 + 50/100).
  assert.match(flagged.trace, /\[HeapController\] factor 1\.5 /);
  const fromEnv = await child([], { DENO_V8_FLAGS: "--heap-growing-percent=25" }, probe);
  assert.equal(fromEnv.answer, "25");
  const none = await child([], {}, probe);
  assert.equal(none.answer, "null");
});
