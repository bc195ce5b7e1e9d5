/**
 * How each store contract registers a test: one `Deno.test` per title, named
 * after the adapter, on a store opened under a prefix of its own and cleaned up
 * whatever the test does.
 *
 * @module
 */
import { uniquePrefix } from "./etcd.ts";
import type { Store } from "../../src/store/store.ts";
import type { OpenStore } from "./store_contract.ts";

/**
 * A registrar of contract tests for the adapter `name`: `test(title, fn)` runs
 * `fn` on a store that `open` made for it alone.
 */
export function contractTest(
  name: string,
  open: OpenStore,
): (title: string, fn: (store: Store) => Promise<void>) => void {
  return (title, fn) =>
    Deno.test(`${name} store: ${title}`, async () => {
      const { store, cleanup } = await open(uniquePrefix(title));
      try {
        await fn(store);
      } finally {
        await cleanup();
      }
    });
}
