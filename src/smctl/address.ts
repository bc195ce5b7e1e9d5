/**
 * Checks of `--address` / `--endpoints` values before anything dials them, so
 * a typo reads as a plain message instead of a socket error from deep inside
 * the gRPC library.
 *
 * @module
 */
import { UsageError } from "./errors.ts";

/**
 * Returns `address` when it is a usable gRPC target (`host:port` with a port
 * from 1 to 65535, `[v6]:port`, or a URI such as `unix:/path` or
 * `dns:///host:port`, passed through), else throws a {@linkcode UsageError}
 * naming `flag` and the value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkAddress } from "./address.ts";
 *
 * assert.equal(checkAddress("127.0.0.1:7943"), "127.0.0.1:7943");
 * assert.throws(
 *   () => checkAddress("127.0.0.1:99999"),
 *   /--address "127.0.0.1:99999": port 99999 is out of range \(1-65535\)/,
 * );
 * ```
 */
export function checkAddress(address: string, flag = "--address"): string {
  const problem = addressProblem(address.trim());
  if (problem) throw new UsageError(`${flag} ${JSON.stringify(address)}: ${problem}`);
  return address.trim();
}

function addressProblem(address: string): string | undefined {
  if (address === "") return "empty; expected host:port, e.g. 127.0.0.1:7943";
  if (/^(unix|unix-abstract|dns|ipv4|ipv6):/.test(address)) return undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(address)) {
    return "expected host:port without a scheme, e.g. 127.0.0.1:7943";
  }
  const colon = address.lastIndexOf(":");
  const host = address.slice(0, colon);
  if (colon <= 0 || (host.includes(":") && !/^\[.*\]$/.test(host))) {
    return "expected host:port, e.g. 127.0.0.1:7943 (the gRPC port, server.grpcAddress)";
  }
  const port = address.slice(colon + 1);
  if (!/^\d+$/.test(port)) return `port ${JSON.stringify(port)} is not a number`;
  const n = Number(port);
  if (n < 1 || n > 65535) return `port ${n} is out of range (1-65535)`;
  return undefined;
}
