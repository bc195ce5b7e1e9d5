import assert from "node:assert/strict";
import type { NamespaceRuntime } from "./namespace_runtime.ts";
import { NamespaceRegistry } from "./namespace_registry.ts";

const runtime = (name: string) => ({ name }) as unknown as NamespaceRuntime;

Deno.test("registry waits resolve on the add or remove that makes their condition hold, with no polling", async () => {
  const registry = new NamespaceRegistry();
  registry.add(runtime("a"));
  let gone = false;
  const waiting = registry.waitUntil(() => !registry.has("a")).then(() => gone = true);
  registry.add(runtime("b"));
  await Promise.resolve();
  assert.equal(gone, false, "another namespace's change does not end the wait");
  registry.remove("a");
  await waiting;
  assert.equal(gone, true);
  await registry.waitUntil(() => registry.has("b")); // holds already: resolves at once
});

Deno.test("a registry wait rejects with the signal's reason when it aborts first", async () => {
  const registry = new NamespaceRegistry();
  registry.add(runtime("a"));
  const stop = new AbortController();
  const waiting = registry.waitUntil(() => !registry.has("a"), stop.signal);
  stop.abort(new Error("gave up"));
  await assert.rejects(waiting, /gave up/);
});
