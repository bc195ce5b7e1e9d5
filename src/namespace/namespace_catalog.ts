/**
 * Namespaces as data, followed: the definitions in the store (created through
 * the API, or seeded from the configuration file) decide which
 * {@linkcode NamespaceRuntime}s this instance runs. A watch applies each
 * change as it comes: a new definition starts a runtime, a changed one
 * replaces it (the next leader term plans with the new policy), a deleted one
 * stops it. A stored definition that does not validate is logged and skipped.
 *
 * @module
 */
import { namespaceSchema } from "../config/namespace_schema.ts";
import type { NamespaceConfig } from "../config/mod.ts";
import { type Clock, sleep, systemClock, timeoutSignal } from "../core/clock.ts";
import type { Logger } from "../core/logger.ts";
import type { NamespaceRuntime } from "./namespace_runtime.ts";
import type {
  DefinitionSource,
  NamespaceDefinitions,
  StoredDefinition,
} from "../store/namespace_definitions.ts";
import type { NamespaceRegistry } from "./namespace_registry.ts";

/** What the catalog runs namespaces with. */
export interface NamespaceCatalogOptions {
  /** Where definitions are stored. */
  readonly definitions: NamespaceDefinitions;
  /** The runtimes served, which the catalog fills. */
  readonly registry: NamespaceRegistry;
  /** Builds a runtime for a validated definition. */
  readonly build: (config: NamespaceConfig) => NamespaceRuntime;
  /** Where to log each change. */
  readonly logger: Logger;
  /** Whose time the waits run on. @default {systemClock} */
  readonly clock?: Clock;
}

interface Running {
  readonly runtime: NamespaceRuntime;
  readonly stop: AbortController;
  readonly definition: StoredDefinition;
}

/** Reads a stored definition; undefined (logged) when it does not validate. */
export function storedConfig(
  definition: StoredDefinition,
  logger?: Logger,
): NamespaceConfig | undefined {
  const parsed = namespaceSchema.safeParse(definition.spec);
  if (!parsed.success || parsed.data.name !== definition.name) {
    logger?.error("invalid stored namespace definition skipped", {
      namespace: definition.name,
      reason: parsed.success ? "its name differs from its key" : parsed.error.message,
    });
    return undefined;
  }
  return parsed.data;
}

/** The runtimes of one instance, following the stored definitions. */
export class NamespaceCatalog {
  readonly #options: NamespaceCatalogOptions;
  readonly #clock: Clock;
  readonly #running = new Map<string, Running>();
  #revision = 0;
  #waiters: { revision: number; resolve: () => void }[] = [];
  #queue: Promise<void> = Promise.resolve();

  /** A catalog that fills `options.registry`. */
  constructor(options: NamespaceCatalogOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
  }

  /** The stored definition a running namespace was started from. */
  definition(name: string): StoredDefinition | undefined {
    return this.#running.get(name)?.definition;
  }

  /** Where a running namespace's definition comes from. */
  source(name: string): DefinitionSource | undefined {
    return this.#running.get(name)?.definition.source;
  }

  /** The last store revision applied. */
  get revision(): number {
    return this.#revision;
  }

  /** Loads the definitions and starts their runtimes, then follows changes until `signal` aborts. */
  async start(signal: AbortSignal): Promise<void> {
    const { revision, definitions } = await this.#options.definitions.loadDefinitions();
    await Promise.all(
      [...definitions.values()].map((definition) =>
        this.#apply(definition.name, definition, signal)
      ),
    );
    this.#advance(revision);
    void this.#follow(revision, signal);
  }

  /** Resolves once changes up to `revision` are applied here (or after `timeoutMs`). */
  async waitFor(revision: number, timeoutMs = 5_000): Promise<boolean> {
    if (this.#revision >= revision) return true;
    const applied = new Promise<boolean>((resolve) => {
      this.#waiters.push({ revision, resolve: () => resolve(true) });
    });
    const late = timeoutSignal(timeoutMs, this.#clock);
    const timedOut = new Promise<boolean>((resolve) =>
      late.signal.addEventListener("abort", () => resolve(false), { once: true })
    );
    return await Promise.race([applied, timedOut]).finally(late.clear);
  }

  /** Stops every runtime (the instance is shutting down). */
  async stopAll(): Promise<void> {
    await this.#queue.catch(() => {});
    await Promise.all([...this.#running.keys()].map((name) => this.#stopRuntime(name)));
  }

  async #follow(after: number, signal: AbortSignal): Promise<void> {
    let revision = after;
    while (!signal.aborted) {
      try {
        const reader = this.#options.definitions.watchDefinitions(revision, signal).getReader();
        while (true) {
          const { done, value } = await reader.read();
          if (done) break;
          if (value.resync) {
            const snapshot = await this.#options.definitions.loadDefinitions();
            await this.#serial(() => this.#resync(snapshot.definitions, signal));
            revision = snapshot.revision;
            this.#advance(revision);
            break;
          }
          await this.#serial(async () => {
            for (const change of value.changes) {
              await this.#apply(change.name, change.definition, signal);
            }
          });
          revision = Math.max(revision, value.revision);
          this.#advance(revision);
        }
      } catch (error) {
        if (signal.aborted) return;
        this.#options.logger.warn("namespace definitions watch failed; retrying", { error });
      }
      await sleep(500, signal, this.#clock).catch(() => {});
    }
  }

  #serial(fn: () => Promise<void>): Promise<void> {
    const run = this.#queue.catch(() => {}).then(fn);
    this.#queue = run;
    return run;
  }

  async #resync(definitions: ReadonlyMap<string, StoredDefinition>, signal: AbortSignal) {
    for (const name of this.#running.keys()) {
      if (!definitions.has(name)) await this.#apply(name, undefined, signal);
    }
    for (const definition of definitions.values()) {
      await this.#apply(definition.name, definition, signal);
    }
  }

  #advance(revision: number): void {
    this.#revision = Math.max(this.#revision, revision);
    const ready = this.#waiters.filter((w) => w.revision <= this.#revision);
    this.#waiters = this.#waiters.filter((w) => w.revision > this.#revision);
    for (const waiter of ready) waiter.resolve();
  }

  /** Starts, replaces or stops `name`'s runtime to match `definition`. */
  async #apply(
    name: string,
    definition: StoredDefinition | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    const { logger } = this.#options;
    const running = this.#running.get(name);
    if (!definition) {
      if (!running) return;
      await this.#stopRuntime(name);
      logger.info("namespace stopped: its definition was deleted", { namespace: name });
      return;
    }
    if (running && running.definition.revision >= definition.revision) return;
    if (running && JSON.stringify(running.definition.spec) === JSON.stringify(definition.spec)) {
      this.#running.set(name, { ...running, definition });
      return;
    }
    const config = storedConfig(definition, logger);
    if (!config || signal.aborted) return;
    const stop = new AbortController();
    const runtimeSignal = AbortSignal.any([signal, stop.signal]);
    const runtime = this.#options.build(config);
    await runtime.load(runtimeSignal);
    // Calls go to the new runtime at once; the old one resigns before the new one campaigns.
    this.#options.registry.replace(runtime);
    this.#running.set(name, { runtime, stop, definition });
    if (running) {
      running.stop.abort();
      await running.runtime.stopped();
    }
    runtime.campaign(runtimeSignal);
    logger.info(running ? "namespace changed" : "namespace started", {
      namespace: name,
      source: definition.source,
      revision: definition.revision,
    });
  }

  async #stopRuntime(name: string): Promise<void> {
    const running = this.#running.get(name);
    if (!running) return;
    this.#running.delete(name);
    this.#options.registry.remove(name);
    running.stop.abort();
    await running.runtime.stopped();
  }
}
