import assert from "node:assert/strict";
import type { NamespaceConfig } from "../config/mod.ts";
import type { Clock } from "../core/clock.ts";
import { fakeClock } from "../core/fake_clock.ts";
import { silentLogger } from "../core/logger.ts";
import type { NamespaceRuntime } from "./namespace_runtime.ts";
import type {
  DefinitionBatch,
  DefinitionValue,
  NamespaceDefinitions,
  StoredDefinition,
} from "../store/namespace_definitions.ts";
import { policyOf } from "../policy/_testing.ts";
import { NamespaceCatalog } from "./namespace_catalog.ts";
import { NamespaceRegistry } from "./namespace_registry.ts";

/** A runtime that records what happened to it. */
function fakeRuntime(config: NamespaceConfig, events: string[]): NamespaceRuntime {
  let stopped: Promise<void> = Promise.resolve();
  const tag = `${config.name}@${config.kind === "fixed" ? config.shardNum : "-"}`;
  return {
    name: config.name,
    policy: policyOf(config),
    load: () => {
      events.push(`load ${tag}`);
      return Promise.resolve();
    },
    campaign: (signal: AbortSignal) => {
      events.push(`campaign ${tag}`);
      stopped = new Promise((resolve) =>
        signal.addEventListener("abort", () => {
          events.push(`stop ${tag}`);
          resolve();
        }, { once: true })
      );
    },
    stopped: () => stopped,
  } as unknown as NamespaceRuntime;
}

/** Definitions in memory, streamed to watchers as they are written. */
function memoryDefinitions(): NamespaceDefinitions {
  let revision = 0;
  const stored = new Map<string, StoredDefinition>();
  const watchers = new Set<ReadableStreamDefaultController<DefinitionBatch>>();
  const publish = (batch: DefinitionBatch) => {
    for (const watcher of watchers) watcher.enqueue(batch);
  };
  return {
    loadDefinitions: () => Promise.resolve({ revision, definitions: new Map(stored) }),
    watchDefinitions: (_after, signal) =>
      new ReadableStream({
        start(controller) {
          watchers.add(controller);
          signal.addEventListener("abort", () => {
            watchers.delete(controller);
            controller.close();
          }, { once: true });
        },
      }),
    putDefinition: (value: DefinitionValue, expected?: number) => {
      const current = stored.get(value.name);
      if (expected !== undefined && (current?.revision ?? 0) !== expected) {
        return Promise.resolve(undefined);
      }
      const definition = { ...value, revision: ++revision };
      stored.set(value.name, definition);
      publish({ revision, changes: [{ name: value.name, definition }] });
      return Promise.resolve(revision);
    },
    deleteDefinition: (name: string) => {
      if (!stored.delete(name)) return Promise.resolve(false);
      publish({ revision: ++revision, changes: [{ name }] });
      return Promise.resolve(true);
    },
  };
}

function setup(clock?: Clock) {
  const definitions = memoryDefinitions();
  const registry = new NamespaceRegistry();
  const events: string[] = [];
  const catalog = new NamespaceCatalog({
    definitions,
    registry,
    build: (config) => fakeRuntime(config, events),
    logger: silentLogger,
    ...(clock ? { clock } : {}),
  });
  return { definitions, registry, events, catalog };
}

const spec = (name: string, shardNum: number) => ({ name, type: "fixed", shardNum });

Deno.test("the catalog starts stored namespaces, replaces changed ones (old stops before the new campaigns) and stops deleted ones", async () => {
  const { definitions, registry, events, catalog } = setup();
  const stop = new AbortController();
  try {
    await definitions.putDefinition({ name: "a", source: "file", spec: spec("a", 2) }, 0);
    await catalog.start(stop.signal);
    assert.deepEqual(registry.names(), ["a"]);
    assert.equal(catalog.source("a"), "file");

    const created = await definitions.putDefinition(
      { name: "b", source: "api", spec: spec("b", 4) },
      0,
    );
    assert.ok(await catalog.waitFor(created!));
    assert.deepEqual(registry.names(), ["a", "b"]);

    events.length = 0;
    const changed = await definitions.putDefinition({
      name: "b",
      source: "api",
      spec: spec("b", 8),
    });
    assert.ok(await catalog.waitFor(changed!));
    assert.deepEqual(events, ["load b@8", "stop b@4", "campaign b@8"]);
    assert.deepEqual(registry.get("b").policy.keys, { kind: "fixed", shardNum: 8 });

    events.length = 0;
    const same = await definitions.putDefinition({ name: "b", source: "api", spec: spec("b", 8) });
    assert.ok(await catalog.waitFor(same!));
    assert.deepEqual(events, [], "an unchanged spec keeps its runtime");

    await definitions.deleteDefinition("b");
    const after = await definitions.putDefinition({ name: "c", source: "api", spec: spec("c", 1) });
    assert.ok(await catalog.waitFor(after!));
    assert.deepEqual(registry.names(), ["a", "c"]);
    assert.ok((events as string[]).includes("stop b@8"));
  } finally {
    stop.abort();
    await catalog.stopAll();
  }
});

Deno.test("the catalog skips a stored definition that does not validate and keeps the running one", async () => {
  const { definitions, registry, catalog } = setup();
  const stop = new AbortController();
  try {
    await catalog.start(stop.signal);
    const good = await definitions.putDefinition({ name: "a", source: "api", spec: spec("a", 2) });
    assert.ok(await catalog.waitFor(good!));
    const bad = await definitions.putDefinition({
      name: "a",
      source: "api",
      spec: { name: "a", type: "fixed", shardNum: 0 },
    });
    assert.ok(await catalog.waitFor(bad!));
    assert.deepEqual(registry.get("a").policy.keys, { kind: "fixed", shardNum: 2 });
    const renamed = await definitions.putDefinition({
      name: "x",
      source: "api",
      spec: spec("y", 1),
    });
    assert.ok(await catalog.waitFor(renamed!));
    assert.ok(
      !registry.has("x") && !registry.has("y"),
      "a spec naming another namespace is skipped",
    );
  } finally {
    stop.abort();
    await catalog.stopAll();
  }
});

Deno.test("the catalog's wait for a revision gives up after its timeout on the catalog's clock", async () => {
  const time = fakeClock();
  const { catalog } = setup(time.clock);
  const stop = new AbortController();
  try {
    await catalog.start(stop.signal);
    let outcome: boolean | undefined;
    const waiting = catalog.waitFor(7, 1_000).then((applied) => outcome = applied);
    await time.tick(999);
    assert.equal(outcome, undefined, "still waiting");
    await time.tick(1);
    await waiting;
    assert.equal(outcome, false, "revision 7 never came");
    assert.equal(time.pending(), 0, "no timer left behind");
  } finally {
    stop.abort();
    await catalog.stopAll();
  }
});
