/**
 * The namespace RPCs: create, update, delete and read definitions in the
 * store, with the configuration file's schema and errors. Every instance
 * (this one included) applies them through its {@linkcode NamespaceCatalog};
 * a call returns once this instance has.
 *
 * @module
 */
import {
  ConfigError,
  formatDuration,
  type NamespaceConfig,
  type NamespaceSpec,
  namespaceSpec,
  parseNamespaceDefinition,
} from "../config/mod.ts";
import {
  InvalidArgumentError,
  NamespaceExistsError,
  NamespaceNotFoundError,
  PreconditionError,
  StoreUnavailableError,
} from "../core/errors.ts";
import { type Clock, sleep, timeoutSignal } from "../core/clock.ts";
import type { Logger } from "../core/logger.ts";
import { fixedShardKeys } from "../plan/shard_universe.ts";
import type { Store } from "../store/mod.ts";
import type { StoredDefinition } from "../store/namespace_definitions.ts";
import { describeChanges, refusal } from "./definition_changes.ts";
import { type NamespaceCatalog, storedConfig } from "./namespace_catalog.ts";
import type { NamespaceRegistry } from "./namespace_registry.ts";
import type { NamespaceHistory } from "./namespace_history.ts";
import { formatRefusal } from "./format_settings.ts";
import { DrainProgress } from "./drain_progress.ts";

/** What the admin acts with. */
export interface NamespaceAdminOptions {
  /** The main store (definitions, drains, reset). */
  readonly store: Store;
  /** This instance's catalog. */
  readonly catalog: NamespaceCatalog;
  /** This instance's runtimes. */
  readonly registry: NamespaceRegistry;
  /** `process.heartbeatTTL`: an ownership lease must be at least this. */
  readonly heartbeatTtlMs: number;
  /** Where changes are logged. */
  readonly logger: Logger;
  /** Time source (liveness of the executors a drain waits for). */
  readonly clock: Clock;
  /** Where creations, changes and deletions are recorded. @default {none} */
  readonly history?: NamespaceHistory;
  /** The main store's format: which settings a stored definition may use. @default {2} */
  readonly storeFormat?: number;
}

/** Who changed a namespace defined in the configuration file. */
export const FILE_ACTOR = "configuration file";

/** The outcome of an update. */
export interface UpdateOutcome {
  /** The definition stored. */
  readonly definition: StoredDefinition;
  /** One line per changed field. */
  readonly changes: string[];
}

const DEFAULT_DRAIN_MS = 30_000;
/** Longest wait for the catalog to stop a deleted namespace's runtime here, ms. */
const STOP_WAIT_MS = 5_000;
/** Time given to heartbeats in flight when a namespace is deleted, before its keys are reset again, ms. */
const IN_FLIGHT_MS = 500;

/** How long a reader's definition read waits for the store before it answers from the followed copy, ms. */
export const DEFINITION_READ_BOUND_MS = 1_000;

/** Creates, changes and deletes namespaces through the store. */
export class NamespaceAdmin {
  readonly #o: NamespaceAdminOptions;

  /** An admin over `options.store`. */
  constructor(options: NamespaceAdminOptions) {
    this.#o = options;
  }

  /** Reads and checks a definition sent for `name`; throws `InvalidArgumentError` naming the field. */
  parse(name: string, text: string): { config: NamespaceConfig; spec: Record<string, unknown> } {
    let parsed;
    try {
      parsed = parseNamespaceDefinition(text);
    } catch (error) {
      if (error instanceof ConfigError) {
        throw new InvalidArgumentError("definition_yaml", error.message.replaceAll("\n", "; "));
      }
      throw error;
    }
    const { config, spec } = parsed;
    if (config.name !== name) {
      throw new InvalidArgumentError(
        "namespace",
        `${JSON.stringify(name)} differs from the definition's name ${JSON.stringify(config.name)}`,
      );
    }
    const lease = config.kind === "cells" || config.kind === "range" ||
        config.ownership.mode !== "exclusive"
      ? undefined
      : config.ownership.leaseMs;
    if (lease !== undefined && lease < this.#o.heartbeatTtlMs) {
      throw new InvalidArgumentError(
        "definition_yaml",
        `ownershipLease: must be at least process.heartbeatTTL (${
          formatDuration(this.#o.heartbeatTtlMs)
        }), got ${formatDuration(lease)}`,
      );
    }
    this.checkFormat(config.name, spec);
    return { config, spec: { ...spec } };
  }

  /** Throws `PreconditionError` when `spec` has settings the store's format cannot hold. */
  checkFormat(name: string, spec: Readonly<Record<string, unknown>>): void {
    const why = formatRefusal(spec, this.#o.storeFormat ?? 2);
    if (why) throw new PreconditionError(name, why);
  }

  /**
   * The definition of `name` for a reader: the store's, or when the store
   * does not answer within {@linkcode DEFINITION_READ_BOUND_MS}, the copy this
   * instance follows (current up to the store's last answer), so that a read
   * never hangs on a stalled store.
   */
  async read(name: string): Promise<StoredDefinition> {
    const timeUp = new AbortController();
    const late = sleep(DEFINITION_READ_BOUND_MS, timeUp.signal, this.#o.clock).then(() =>
      undefined
    );
    try {
      const found = await Promise.race([this.get(name), late]);
      if (found) return found;
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
    } finally {
      timeUp.abort();
      await late.catch(() => {});
    }
    const followed = this.#o.catalog.definition(name);
    if (!followed) throw new NamespaceNotFoundError(name);
    return followed;
  }

  /** The stored definition of `name`; `NamespaceNotFoundError` when there is none. */
  async get(name: string): Promise<StoredDefinition> {
    const { definitions } = await this.#o.store.definitions.loadDefinitions();
    const found = definitions.get(name);
    if (!found) throw new NamespaceNotFoundError(name);
    return found;
  }

  /** Creates a namespace through the API; `NamespaceExistsError` when the name is taken. */
  async create(name: string, text: string): Promise<StoredDefinition> {
    const { config, spec } = this.parse(name, text);
    const value = { name: config.name, source: "api" as const, spec };
    const revision = await this.#o.store.definitions.putDefinition(value, 0);
    if (revision === undefined) {
      const existing = await this.get(config.name).catch(() => undefined);
      throw new NamespaceExistsError(config.name, existing?.source ?? "api");
    }
    await this.#o.catalog.waitFor(revision);
    this.#o.logger.info("namespace created", { namespace: config.name, revision });
    void this.#o.history?.record(config.name, {
      type: "namespace_created",
      text: `namespace created through the API (${summary(config)})`,
    });
    return { ...value, revision };
  }

  /**
   * Changes a namespace created through the API (a file's is read-only here).
   * A change that cannot be applied live is refused with the reason, and the
   * namespace keeps running as it was.
   */
  async update(
    name: string,
    text: string,
    options: { readonly force?: boolean; readonly expectedRevision?: number } = {},
  ): Promise<UpdateOutcome> {
    const { config, spec } = this.parse(name, text);
    const stored = await this.get(config.name);
    if (stored.source === "file") {
      throw new PreconditionError(
        config.name,
        `Namespace ${
          JSON.stringify(config.name)
        } is defined in the configuration file: edit the file on every instance and send them SIGHUP`,
      );
    }
    return await this.apply(stored, { name: config.name, config, spec, source: "api" }, options);
  }

  /**
   * Replaces `stored` with `next` after the safety checks (shared with the
   * file reload); a shrinking `shardNum` (with `force`) drains the removed
   * shards first.
   */
  async apply(
    stored: StoredDefinition,
    next: {
      name: string;
      config: NamespaceConfig;
      spec: Record<string, unknown>;
      source: "api" | "file";
    },
    options: {
      readonly force?: boolean;
      readonly expectedRevision?: number;
      /** Wait until this instance runs the change (not before its catalog started). @default {true} */
      readonly wait?: boolean;
    } = {},
  ): Promise<UpdateOutcome> {
    const before = storedConfig(stored);
    const changes = describeChanges(stored.spec, next.spec);
    if (before) {
      const why = refusal(before, next.config, options.force ?? false);
      if (why) throw new PreconditionError(next.name, `Refused: ${why}; nothing was changed`);
    }
    const expected = options.expectedRevision || stored.revision;
    if (expected !== stored.revision) {
      throw new PreconditionError(
        next.name,
        `Namespace ${
          JSON.stringify(next.name)
        } is at revision ${stored.revision}, not ${expected}; read it again`,
      );
    }
    if (changes.length === 0 && stored.source === next.source) {
      return { definition: stored, changes };
    }
    const removed = before?.kind === "fixed" && next.config.kind === "fixed" &&
        next.config.shardNum < before.shardNum
      ? fixedShardKeys(before.shardNum).slice(next.config.shardNum)
      : [];
    if (removed.length > 0) {
      const left = await this.#drain(next.name, removed, DEFAULT_DRAIN_MS);
      if (left.length > 0) {
        throw new PreconditionError(
          next.name,
          `Refused: shards ${left.join(", ")} still have owners after ${
            formatDuration(DEFAULT_DRAIN_MS)
          }; they stay drained, retry when their executors released them`,
        );
      }
    }
    const value = { name: next.name, source: next.source, spec: next.spec };
    const revision = await this.#o.store.definitions.putDefinition(value, expected);
    if (revision === undefined) {
      throw new PreconditionError(
        next.name,
        `Namespace ${JSON.stringify(next.name)} changed since revision ${expected}; read it again`,
      );
    }
    if (options.wait ?? true) await this.#o.catalog.waitFor(revision);
    if (removed.length > 0) await this.#o.store.setDrained(next.name, removed, false);
    for (const change of changes) {
      this.#o.logger.info("namespace definition changed", { namespace: next.name, change });
    }
    void this.#o.history?.record(next.name, {
      type: "namespace_updated",
      ...(next.source === "file" ? { actor: FILE_ACTOR } : {}),
      changes,
      text: `namespace definition changed${next.source === "file" ? " in the file" : ""}: ` +
        (changes.length > 0 ? changes.join("; ") : `source ${stored.source} → ${next.source}`),
    });
    return { definition: { ...value, revision }, changes };
  }

  /**
   * Deletes a namespace created through the API: drains every shard, waits
   * until none has an owner (at most `drainTimeoutMs`), then deletes the
   * definition (every instance stops it) and the namespace's keys. When the
   * drain times out nothing is deleted and the shards still owned are returned.
   */
  async delete(
    name: string,
    drainTimeoutMs = DEFAULT_DRAIN_MS,
  ): Promise<{ undrained: string[]; deletedKeys: number }> {
    const stored = await this.get(name);
    if (stored.source === "file") {
      throw new PreconditionError(
        name,
        `Namespace ${
          JSON.stringify(name)
        } is defined in the configuration file: remove it from the file on every instance and send them SIGHUP`,
      );
    }
    return await this.remove(stored, drainTimeoutMs);
  }

  /** Deletes `stored` whatever its source (the file reload's delete), draining first. */
  async remove(
    stored: StoredDefinition,
    drainTimeoutMs = DEFAULT_DRAIN_MS,
  ): Promise<{ undrained: string[]; deletedKeys: number }> {
    const { name } = stored;
    const config = storedConfig(stored);
    const runtime = this.#o.registry.has(name) ? this.#o.registry.get(name) : undefined;
    const keys = new Set<string>();
    for (const [key] of runtime?.view.owned() ?? []) keys.add(key);
    if (config?.kind === "fixed") {
      for (const key of fixedShardKeys(config.shardNum)) {
        keys.add(key);
      }
    }
    const undrained = await this.#drain(name, [...keys], drainTimeoutMs);
    if (undrained.length > 0) return { undrained, deletedKeys: 0 };
    if (!await this.#o.store.definitions.deleteDefinition(name, stored.revision)) {
      throw new PreconditionError(
        name,
        `Namespace ${JSON.stringify(name)} changed while it was drained; read it again`,
      );
    }
    // The catalog stops the runtime once its watch sees the deletion.
    const { registry, clock } = this.#o;
    const stopping = timeoutSignal(STOP_WAIT_MS, clock);
    await registry.waitUntil(() => !registry.has(name), stopping.signal).catch(() => {});
    stopping.clear();
    // Heartbeats already in flight may write once more: reset again after they settled.
    let deletedKeys = await this.#o.store.resetNamespace(name);
    await sleep(IN_FLIGHT_MS, undefined, clock);
    deletedKeys += await this.#o.store.resetNamespace(name);
    this.#o.logger.info("namespace deleted", { namespace: name, deletedKeys });
    void this.#o.history?.record(name, {
      type: "namespace_deleted",
      ...(stored.source === "file" ? { actor: FILE_ACTOR } : {}),
      text: `namespace deleted${stored.source === "file" ? " from the file" : ""}: every ` +
        `shard drained, ${deletedKeys} keys removed; this history stays readable until its ` +
        `retention ends`,
    });
    return { undrained: [], deletedKeys };
  }

  /**
   * Drains `keys` and waits until none has an owner and every live executor
   * heartbeated since and reports running none of them (so each was told by
   * an answer and acted on it); returns those still owned or reported.
   */
  async #drain(name: string, keys: readonly string[], timeoutMs: number): Promise<string[]> {
    const runtime = this.#o.registry.has(name) ? this.#o.registry.get(name) : undefined;
    if (!runtime || keys.length === 0) return [];
    const revision = await this.#o.store.setDrained(name, keys, true);
    await runtime.waitForRevision(revision);
    runtime.requestPass();
    const { clock } = this.#o;
    const deadline = clock.monotonic() + timeoutMs;
    // By store revisions, never timestamps: see drain_progress.ts.
    const progress = new DrainProgress(keys);
    const left = () => progress.left(runtime.view, clock.monotonic());
    while (left().length > 0 && clock.monotonic() < deadline) {
      // Wait for the next change the cache applies (an owner gone, a heartbeat), or
      // until time alone changes the answer: an executor's liveness ends, or the deadline.
      const now = clock.monotonic();
      const until = Math.min(deadline, runtime.view.livenessDeadline(now, Infinity) + 1);
      const wake = timeoutSignal(until - now, clock);
      await runtime.waitUntil(() => left().length === 0, wake.signal).catch(() => {});
      wake.clear();
    }
    return left();
  }
}

/** `fixed, 12 shards, exclusive ownership`: what a new namespace is, in a few words. */
export function summary(config: NamespaceConfig): string {
  const parts: string[] = [config.kind];
  if (config.kind === "fixed") parts.push(`${config.shardNum} shards`);
  if (config.kind === "range") parts.push(`${config.range.initialSlices} initial slices`);
  if (config.kind !== "cells") {
    parts.push(`${config.kind === "range" ? "available" : config.ownership.mode} ownership`);
  }
  return parts.join(", ");
}

/**
 * The definition of a namespace from the file, as stored: `spec` as it was
 * written, else written out from `config`.
 */
export function fileDefinition(
  config: NamespaceConfig,
  spec: NamespaceSpec = namespaceSpec(config),
): { name: string; source: "file"; spec: Record<string, unknown> } {
  return { name: config.name, source: "file" as const, spec: { ...spec } };
}
