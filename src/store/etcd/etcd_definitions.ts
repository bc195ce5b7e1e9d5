/**
 * Namespace definitions on etcd, one key each:
 * `<prefix>/definitions/<name>` → `{"source":"api","spec":{...}}`. Creates
 * compare that the key is absent, conditional updates its mod revision.
 *
 * @module
 */
import type { Etcd3, IWatchResponse, Watcher } from "etcd3";
import { StoreUnavailableError } from "../../core/errors.ts";
import type {
  DefinitionBatch,
  DefinitionChange,
  DefinitionsSnapshot,
  DefinitionValue,
  NamespaceDefinitions,
  StoredDefinition,
} from "../namespace_definitions.ts";
import { absent, del, errorText, modIs, put, txn } from "./txn.ts";
import { cancelWatcher, openWatcher } from "./watchers.ts";
import { parseJson } from "../../core/parse_json.ts";

/** Decodes one stored value; undefined when it is not a definition. */
function decode(name: string, value: string, revision: number): StoredDefinition | undefined {
  try {
    const parsed = parseJson(value) as { source?: unknown; spec?: unknown };
    const source = parsed.source === "file" ? "file" : parsed.source === "api" ? "api" : undefined;
    if (!source || typeof parsed.spec !== "object" || parsed.spec === null) return undefined;
    return { name, source, spec: parsed.spec as Record<string, unknown>, revision };
  } catch {
    return undefined;
  }
}

/** The {@linkcode NamespaceDefinitions} port on etcd under `<prefix>/definitions/`. */
export class EtcdDefinitions implements NamespaceDefinitions {
  readonly #client: Etcd3;
  readonly #root: string;

  /** Uses `client` (not owned) under `prefix`. */
  constructor(client: Etcd3, prefix: string) {
    this.#client = client;
    this.#root = `${prefix}/definitions/`;
  }

  /** Reads every definition at one revision. */
  async loadDefinitions(): Promise<DefinitionsSnapshot> {
    let response;
    try {
      response = await this.#client.getAll().prefix(this.#root).exec();
    } catch (cause) {
      throw new StoreUnavailableError(`etcd read failed: ${errorText(cause)}`, { cause });
    }
    const definitions = new Map<string, StoredDefinition>();
    for (const kv of response.kvs) {
      const name = kv.key.toString().slice(this.#root.length);
      const definition = decode(name, kv.value.toString(), Number(kv.mod_revision));
      if (definition) definitions.set(name, definition);
    }
    return { revision: Number(response.header.revision), definitions };
  }

  /** Streams changes after `afterRevision`; a failed watch ends the stream with a resync batch. */
  watchDefinitions(afterRevision: number, signal: AbortSignal): ReadableStream<DefinitionBatch> {
    let watcher: Watcher | undefined;
    let closed = false;
    const root = this.#root;
    const client = this.#client;
    return new ReadableStream<DefinitionBatch>({
      start(controller) {
        const close = (resync: boolean) => {
          if (closed) return;
          closed = true;
          void cancelWatcher(watcher);
          if (resync && !signal.aborted) {
            controller.enqueue({ revision: 0, changes: [], resync: true });
          }
          controller.close();
        };
        signal.addEventListener("abort", () => close(false), { once: true });
        if (signal.aborted) return close(false);
        watcher = openWatcher(client.watch().prefix(root).startRevision(String(afterRevision + 1)));
        watcher.on("data", (res: IWatchResponse) => {
          if (closed) return;
          if (res.compact_revision && res.compact_revision !== "0") return close(true);
          const byRevision = new Map<number, DefinitionChange[]>();
          for (const event of res.events ?? []) {
            const name = event.kv.key.toString().slice(root.length);
            const revision = Number(event.kv.mod_revision);
            const definition = event.type === "Delete"
              ? undefined
              : decode(name, event.kv.value.toString(), revision);
            const list = byRevision.get(revision) ?? [];
            list.push(definition ? { name, definition } : { name });
            byRevision.set(revision, list);
          }
          for (const [revision, changes] of [...byRevision].sort((a, b) => a[0] - b[0])) {
            controller.enqueue({ revision, changes });
          }
        });
        watcher.on("error", () => close(true));
      },
      cancel() {
        closed = true;
        return cancelWatcher(watcher);
      },
    });
  }

  /** Writes a definition, conditionally (see the port). */
  async putDefinition(value: DefinitionValue, expected?: number): Promise<number | undefined> {
    const key = this.#root + value.name;
    const body = JSON.stringify({ source: value.source, spec: value.spec });
    const compare = expected === undefined ? [] : expected === 0 ? [absent(key)] : [
      modIs(key, expected),
    ];
    const response = await txn(this.#client, compare, [put(key, body)]);
    return response.succeeded ? Number(response.header.revision) : undefined;
  }

  /** Deletes a definition. */
  async deleteDefinition(name: string, expected?: number): Promise<boolean> {
    const key = this.#root + name;
    const compare = expected === undefined ? [] : [modIs(key, expected)];
    const response = await txn(this.#client, compare, [del(key)]);
    if (!response.succeeded) return false;
    const deleted = response.responses[0]?.response_delete_range?.deleted ?? "0";
    return Number(deleted) > 0;
  }
}
