/**
 * Start-up checks of the two listen addresses (`server.grpcAddress`,
 * `server.httpAddress`): a value that is not `host:port` with a port in
 * 0–65535 is a configuration error, and a port another process holds is found
 * before the instance connects to its stores or logs anything as started.
 *
 * @module
 */

/** A listen address taken apart. */
export interface ListenAddress {
  /** Host name or IP (IPv6 without brackets). */
  readonly hostname: string;
  /** Port, 0 for any free port. */
  readonly port: number;
}

/**
 * Takes `host:port` (or `[v6]:port`) apart, or says in a short phrase what is
 * wrong with it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseListenAddress } from "./listen_check.ts";
 *
 * assert.deepEqual(parseListenAddress("127.0.0.1:7943"), { hostname: "127.0.0.1", port: 7943 });
 * assert.equal(parseListenAddress("127.0.0.1:99999"), "port 99999 is out of range (0-65535)");
 * ```
 */
export function parseListenAddress(text: string): ListenAddress | string {
  const colon = text.lastIndexOf(":");
  if (colon <= 0) return "expected host:port";
  const hostname = text.slice(0, colon).replace(/^\[(.*)\]$/, "$1");
  const portText = text.slice(colon + 1);
  if (!/^\d+$/.test(portText)) return `port ${JSON.stringify(portText)} is not a number`;
  const port = Number(portText);
  if (port > 65535) return `port ${port} is out of range (0-65535)`;
  if (hostname === "") return "expected host:port";
  return { hostname, port };
}

/**
 * Binds `address` for a moment and releases it: undefined when it can be
 * listened on, else why not ("the address is already in use", ...). A port of
 * 0 is always free.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { listenProblem } from "./listen_check.ts";
 *
 * const held = Deno.listen({ hostname: "127.0.0.1", port: 0 });
 * assert.equal(
 *   listenProblem({ hostname: "127.0.0.1", port: held.addr.port }),
 *   "the address is already in use",
 * );
 * held.close();
 * ```
 */
export function listenProblem(address: ListenAddress): string | undefined {
  if (address.port === 0) return undefined;
  try {
    Deno.listen({ hostname: address.hostname, port: address.port }).close();
    return undefined;
  } catch (error) {
    if (error instanceof Deno.errors.AddrInUse) return "the address is already in use";
    if (error instanceof Deno.errors.PermissionDenied) {
      return "permission denied (ports below 1024 need privileges)";
    }
    if (error instanceof Deno.errors.AddrNotAvailable) {
      return "no network interface of this host has that address";
    }
    return (error as Error).message;
  }
}
