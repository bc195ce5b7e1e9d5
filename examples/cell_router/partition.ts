/**
 * Partition keys to partitions: a customer id hashes (32-bit FNV-1a) to one
 * of the `cells` namespace's fixed shards, and the shard's owner is the
 * customer's cell.
 *
 * @module
 */

/**
 * The partition (shard key, `"0"`..`"partitions-1"`) of `customerId`.
 *
 * @example
 * ```ts
 * import { partitionOf } from "./partition.ts";
 * console.assert(partitionOf("customer-42", 16) === partitionOf("customer-42", 16));
 * console.assert(Number(partitionOf("customer-42", 16)) < 16);
 * ```
 */
export function partitionOf(customerId: string, partitions: number): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(customerId)) {
    hash = Math.imul(hash ^ byte, 0x01000193);
  }
  return String((hash >>> 0) % partitions);
}

/**
 * The customer id of a request: the `x-customer-id` header, else the path
 * segment after `/customers/`.
 *
 * @example
 * ```ts
 * import { customerOf } from "./partition.ts";
 * console.assert(customerOf(new Request("http://r/customers/c-7/orders")) === "c-7");
 * ```
 */
export function customerOf(request: Request): string | undefined {
  const header = request.headers.get("x-customer-id");
  if (header) return header;
  const match = new URL(request.url).pathname.match(/^\/customers\/([^/]+)/);
  return match ? decodeURIComponent(match[1]!) : undefined;
}
