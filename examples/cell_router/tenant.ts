/**
 * The partition key of a request: its customer id, which is the shard key
 * (a tenant) of the `mode: cells` namespace as it is.
 *
 * @module
 */

/**
 * The customer id of a request: the `x-customer-id` header, else the path
 * segment after `/customers/`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { customerOf } from "./tenant.ts";
 * assert.equal(customerOf(new Request("http://r/customers/c-7/orders")), "c-7");
 * ```
 */
export function customerOf(request: Request): string | undefined {
  const header = request.headers.get("x-customer-id");
  if (header) return header;
  const match = new URL(request.url).pathname.match(/^\/customers\/([^/]+)/);
  return match ? decodeURIComponent(match[1]!) : undefined;
}
