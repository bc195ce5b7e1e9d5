import assert from "node:assert/strict";
import { VersionSignal } from "./version_signal.ts";

Deno.test("version signal wait resolves with the new version once bumped", async () => {
  const signal = new VersionSignal();
  let resolved: number | undefined;
  const next = signal.wait(0).then((v) => resolved = v);
  await Promise.resolve();
  assert.equal(resolved, undefined);
  signal.bump();
  assert.equal(await next, 1);
  assert.equal(signal.version, 1);
});

Deno.test("version signal wait resolves at once when the version is already past", async () => {
  const signal = new VersionSignal();
  signal.bump();
  signal.bump();
  assert.equal(await signal.wait(1), 2);
  assert.equal(await signal.wait(0), 2);
});

Deno.test("version signal wait rejects with the abort reason", async () => {
  const signal = new VersionSignal();
  const controller = new AbortController();
  const waiting = signal.wait(0, controller.signal);
  const reason = new Error("stop");
  controller.abort(reason);
  await assert.rejects(waiting, (error) => error === reason);
  await assert.rejects(signal.wait(0, controller.signal), (error) => error === reason);
  // The aborted waiter was removed: a later bump still works for others.
  const other = signal.wait(0);
  signal.bump();
  assert.equal(await other, 1);
});

Deno.test("version signal changes skips versions a slow reader missed and yields the latest", async () => {
  const signal = new VersionSignal();
  const controller = new AbortController();
  const reader = signal.changes(controller.signal).getReader();
  signal.bump();
  assert.equal((await reader.read()).value, 1);
  signal.bump();
  signal.bump();
  signal.bump();
  assert.equal((await reader.read()).value, 4);
  let next: number | undefined;
  const pending = reader.read().then((r) => next = r.value);
  await Promise.resolve();
  assert.equal(next, undefined, "no new version, so nothing to read");
  signal.bump();
  await pending;
  assert.equal(next, 5);
  controller.abort();
});

Deno.test("version signal changes starts after the given version", async () => {
  const signal = new VersionSignal();
  signal.bump();
  signal.bump();
  const controller = new AbortController();
  const reader = signal.changes(controller.signal, 0).getReader();
  assert.equal((await reader.read()).value, 2);
  controller.abort();
});

Deno.test("version signal changes closes when the signal aborts", async () => {
  const signal = new VersionSignal();
  const controller = new AbortController();
  const reader = signal.changes(controller.signal).getReader();
  const pending = reader.read();
  controller.abort();
  assert.deepEqual(await pending, { done: true, value: undefined });
});
