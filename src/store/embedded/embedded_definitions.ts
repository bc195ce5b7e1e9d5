/**
 * Namespace definitions of the embedded store: kept in memory, written to
 * `<dataDir>/definitions.json` (replaced atomically) before a change is
 * acknowledged or streamed. Revisions come from the embedded store's counter,
 * so they order with its other writes.
 *
 * @module
 */
import { join } from "node:path";
import type {
  DefinitionBatch,
  DefinitionsSnapshot,
  DefinitionValue,
  NamespaceDefinitions,
  StoredDefinition,
} from "../namespace_definitions.ts";
import { parseJson } from "../../core/parse_json.ts";

const FILE = "definitions.json";

/** The {@linkcode NamespaceDefinitions} port of the embedded store. */
export class EmbeddedDefinitions implements NamespaceDefinitions {
  readonly #path: string | undefined;
  readonly #nextRevision: () => number;
  readonly #currentRevision: () => number;
  #definitions = new Map<string, StoredDefinition>();
  #subscribers = new Set<(batch: DefinitionBatch) => void>();
  #writing: Promise<void> = Promise.resolve();

  private constructor(
    path: string | undefined,
    revisions: { next: () => number; current: () => number },
  ) {
    this.#path = path;
    this.#nextRevision = revisions.next;
    this.#currentRevision = revisions.current;
  }

  /**
   * Opens the definitions of `dataDir` (none when the file is missing);
   * without a directory they live in memory only.
   */
  static async open(
    dataDir: string | undefined,
    revisions: { next: () => number; current: () => number },
  ): Promise<EmbeddedDefinitions> {
    const path = dataDir === undefined ? undefined : join(dataDir, FILE);
    const store = new EmbeddedDefinitions(path, revisions);
    if (path === undefined) return store;
    let text: string | undefined;
    try {
      text = await Deno.readTextFile(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    for (const definition of text ? parseJson(text) as StoredDefinition[] : []) {
      store.#definitions.set(definition.name, definition);
    }
    return store;
  }

  /** Every definition now. */
  loadDefinitions(): Promise<DefinitionsSnapshot> {
    return Promise.resolve({
      revision: this.#currentRevision(),
      definitions: new Map(this.#definitions),
    });
  }

  /** Changes after `afterRevision` (only live ones: history before is in the snapshot). */
  watchDefinitions(afterRevision: number, signal: AbortSignal): ReadableStream<DefinitionBatch> {
    let push: ((batch: DefinitionBatch) => void) | undefined;
    return new ReadableStream<DefinitionBatch>({
      start: (controller) => {
        push = (batch) => {
          if (batch.revision > afterRevision) controller.enqueue(batch);
        };
        const stop = () => {
          if (push) this.#subscribers.delete(push);
          controller.close();
        };
        if (signal.aborted) return stop();
        this.#subscribers.add(push);
        signal.addEventListener("abort", stop, { once: true });
      },
      cancel: () => {
        if (push) this.#subscribers.delete(push);
      },
    });
  }

  /** Writes a definition, conditionally (see the port). */
  async putDefinition(value: DefinitionValue, expected?: number): Promise<number | undefined> {
    const current = this.#definitions.get(value.name);
    if (expected !== undefined && (current?.revision ?? 0) !== expected) return undefined;
    const revision = this.#nextRevision();
    const definition: StoredDefinition = { ...value, revision };
    this.#definitions.set(value.name, definition);
    await this.#persist();
    this.#publish({ revision, changes: [{ name: value.name, definition }] });
    return revision;
  }

  /** Deletes a definition. */
  async deleteDefinition(name: string, expected?: number): Promise<boolean> {
    const current = this.#definitions.get(name);
    if (!current || (expected !== undefined && current.revision !== expected)) return false;
    this.#definitions.delete(name);
    const revision = this.#nextRevision();
    await this.#persist();
    this.#publish({ revision, changes: [{ name }] });
    return true;
  }

  #publish(batch: DefinitionBatch): void {
    for (const push of this.#subscribers) push(batch);
  }

  /** Writes the file (one write at a time, each with the state at its turn). */
  #persist(): Promise<void> {
    const path = this.#path;
    if (path === undefined) return Promise.resolve();
    this.#writing = this.#writing.catch(() => {}).then(async () => {
      const tmp = `${path}.tmp`;
      await Deno.writeTextFile(tmp, JSON.stringify([...this.#definitions.values()]));
      await Deno.rename(tmp, path);
    });
    return this.#writing;
  }
}
