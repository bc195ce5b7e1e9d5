/**
 * The heartbeat's port to the namespaces this instance serves: each runtime
 * as the heartbeat needs it (heartbeat/heartbeats.ts), made once per runtime
 * and kept while the runtime lives, so a heartbeat costs a lookup and no
 * allocation. A runtime's policy never changes: a changed definition is a new
 * runtime, with a new entry.
 *
 * @module
 */
import type { Heartbeat, HeartbeatNamespace, HeartbeatNamespaces } from "../heartbeat/mod.ts";
import type { NamespaceRuntime } from "../namespace/namespace_runtime.ts";
import type { NamespaceRegistry } from "../namespace/namespace_registry.ts";

/**
 * The runtimes of `registry` as the heartbeat sees them; `hear` is told of
 * every valid heartbeat of an exclusive namespace (running_shards.ts).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NamespaceRegistry } from "../namespace/namespace_registry.ts";
 * import { heartbeatNamespaces } from "./heartbeat_namespaces.ts";
 *
 * const lookup = heartbeatNamespaces(new NamespaceRegistry(), () => {});
 * assert.equal(lookup("nope"), undefined);
 * ```
 */
export function heartbeatNamespaces(
  registry: NamespaceRegistry,
  hear: (heartbeat: Heartbeat) => void,
): HeartbeatNamespaces {
  const made = new WeakMap<NamespaceRuntime, HeartbeatNamespace>();
  return (name) => {
    if (!registry.has(name)) return undefined;
    const ns = registry.get(name);
    let seen = made.get(ns);
    if (seen === undefined) {
      const { ownership } = ns.policy;
      const recordEvery = ownership.mode === "exclusive";
      seen = {
        executor: (id) => ns.view.executor(id),
        recordEvery,
        heard: recordEvery ? hear : undefined,
        get view() {
          return ns.view;
        },
        ownership,
        get lifetime() {
          return ns.lifetime;
        },
        waitForRevision: (revision, signal) => ns.waitForRevision(revision, signal),
      };
      made.set(ns, seen);
    }
    return seen;
  };
}
