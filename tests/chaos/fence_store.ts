/**
 * The chaos run's downstream store that rejects stale owners, as
 * docs/ownership.md tells applications to build one: etcd itself, one key
 * per shard under the run's prefix (`<prefix>/fence/<namespace>/<shard>`)
 * holding the highest fencing token accepted so far and a write counter.
 *
 * A write with token T is accepted when the stored token is at most T (the
 * same owner writes again with the same token; a new owner has a greater
 * one) and rejected when it is greater (a stale owner). Accepting is one
 * etcd transaction that compares the key's mod revision with the one the
 * writer last saw, so the check and the increment are atomic: a writer that
 * lost the race reads the key again (the transaction's failure branch) and
 * decides anew. Accepted writes get the numbers 1, 2, 3, ... per shard in
 * the store's order.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { Etcd3 } from "etcd3";

/** What one shard's key holds. */
export interface FenceValue {
  /** The highest fencing token accepted (a decimal integer). */
  readonly token: string;
  /** How many writes were accepted. */
  readonly count: number;
}

/** The outcome of one write. */
export type FenceOutcome =
  | { readonly accepted: true; readonly count: number }
  | { readonly accepted: false; readonly stored: string };

/** How long one etcd call may take before the write fails. */
const CALL_TIMEOUT_MS = 1_000;
/** Writers racing for one key retry this often before the write fails. */
const ATTEMPTS = 5;

/** Parses a stored value; throws on anything else. */
export function parseFenceValue(text: string): FenceValue {
  const value = JSON.parse(text) as Partial<FenceValue>;
  if (typeof value.token !== "string" || !/^\d+$/.test(value.token)) {
    throw new TypeError(`A fence value needs a decimal token, got ${JSON.stringify(text)}`);
  }
  if (!Number.isInteger(value.count) || value.count! < 0) {
    throw new TypeError(`A fence value needs a count, got ${JSON.stringify(text)}`);
  }
  return { token: value.token, count: value.count! };
}

/**
 * The fenced store, for the writers (the chaos child's processors) and for
 * the harness, which reads the final values.
 *
 * @example
 * ```ts ignore
 * const store = new FencedStore(["127.0.0.1:2379"], "chaos-1234/fence");
 * const outcome = await store.write("chaos-x", "0", "42");
 * const finals = await store.readAll(); // Map { "chaos-x/0" => { token: "42", count: 1 } }
 * store.close();
 * ```
 */
export class FencedStore {
  readonly #client: Etcd3;
  readonly #prefix: string;
  /** Per key, the mod revision and value this process last saw (0: absent). */
  readonly #seen = new Map<string, { readonly mod: string; readonly value?: FenceValue }>();

  constructor(endpoints: readonly string[], prefix: string) {
    if (endpoints.length === 0) throw new RangeError("A fenced store needs etcd endpoints");
    this.#prefix = prefix.endsWith("/") ? prefix : `${prefix}/`;
    this.#client = new Etcd3({
      hosts: [...endpoints],
      dialTimeout: CALL_TIMEOUT_MS,
      defaultCallOptions: (context) =>
        context.isStream ? {} : { deadline: Date.now() + CALL_TIMEOUT_MS },
    });
  }

  /** Writes through `token` to shard `shard` of `namespace`; throws when etcd fails. */
  async write(namespace: string, shard: string, token: string): Promise<FenceOutcome> {
    if (!/^\d+$/.test(token)) throw new TypeError(`A fencing token must be decimal, got ${token}`);
    const key = `${this.#prefix}${namespace}/${shard}`;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const seen = this.#seen.get(key) ?? { mod: "0" };
      if (seen.value && BigInt(seen.value.token) > BigInt(token)) {
        return { accepted: false, stored: seen.value.token };
      }
      const next: FenceValue = { token, count: (seen.value?.count ?? 0) + 1 };
      const response = await this.#client.kv.txn({
        compare: [{
          key: Buffer.from(key),
          target: "Mod",
          result: "Equal",
          mod_revision: seen.mod,
        }],
        success: [{
          request_put: { key: Buffer.from(key), value: Buffer.from(JSON.stringify(next)) },
        }],
        failure: [{ request_range: { key: Buffer.from(key) } }],
      });
      if (response.succeeded) {
        this.#seen.set(key, { mod: response.header.revision, value: next });
        return { accepted: true, count: next.count };
      }
      const kv = response.responses[0]?.response_range?.kvs[0];
      this.#seen.set(
        key,
        kv === undefined
          ? { mod: "0" }
          : { mod: kv.mod_revision, value: parseFenceValue(kv.value.toString()) },
      );
    }
    throw new Error(`Write to ${key} lost the race ${ATTEMPTS} times`);
  }

  /** Every shard's value, keyed `namespace/shard`. */
  async readAll(): Promise<Map<string, FenceValue>> {
    const values = new Map<string, FenceValue>();
    const all = await this.#client.getAll().prefix(this.#prefix).strings();
    for (const [key, text] of Object.entries(all)) {
      values.set(key.slice(this.#prefix.length), parseFenceValue(text));
    }
    return values;
  }

  /** Closes the etcd client. */
  close(): void {
    this.#client.close();
  }
}

/**
 * Reads every shard's final value once; `readAt` is when the read began (a
 * write acknowledged before it must be in the values).
 */
export async function readFenceFinals(
  endpoints: readonly string[],
  prefix: string,
): Promise<{ readonly values: Map<string, FenceValue>; readonly readAt: number }> {
  const store = new FencedStore(endpoints, prefix);
  try {
    const readAt = Date.now();
    return { values: await store.readAll(), readAt };
  } finally {
    store.close();
  }
}
