/**
 * Service addresses as the SDKs take them: one `host:port` or a list, checked
 * when an executor, spectator or leader selector is created so a typo fails
 * at once with the expected form instead of later inside the gRPC library.
 *
 * @module
 */
import { InvalidOptionsError } from "./errors.ts";

const EXAMPLE = "e.g. 127.0.0.1:7943 or [::1]:7943";

/**
 * The addresses in `value` as a list, each checked: `host:port` or
 * `[ipv6]:port`, no URL scheme, a port from 1 to 65535. Throws an
 * {@linkcode InvalidOptionsError} (code `INVALID_OPTIONS`) naming `option`
 * and the value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseAddresses } from "./addresses.ts";
 *
 * assert.deepEqual(parseAddresses("127.0.0.1:7943"), ["127.0.0.1:7943"]);
 * assert.deepEqual(parseAddresses(["a:1", "[::1]:7943"]), ["a:1", "[::1]:7943"]);
 * assert.throws(() => parseAddresses("http://127.0.0.1:7943"), /expected host:port without a scheme/);
 * assert.throws(() => parseAddresses("localhost"), /no port/);
 * assert.throws(() => parseAddresses("localhost:0"), /port 0 is out of range/);
 * ```
 */
export function parseAddresses(value: unknown, option = "addresses"): string[] {
  const list = typeof value === "string" ? [value] : Array.isArray(value) ? [...value] : undefined;
  if (list === undefined || list.length === 0) {
    throw new InvalidOptionsError(
      option,
      `${option} must be "host:port" or a non-empty array of them (${EXAMPLE}), got ${show(value)}`,
    );
  }
  return list.map((address) => {
    const problem = typeof address === "string" ? addressProblem(address.trim()) : "not a string";
    if (problem !== undefined) {
      throw new InvalidOptionsError(
        option,
        `${option}: ${show(address)} is not a valid address: ${problem}`,
      );
    }
    return (address as string).trim();
  });
}

function addressProblem(address: string): string | undefined {
  if (address === "") return `empty; expected host:port, ${EXAMPLE}`;
  const scheme = address.match(/^([a-z][a-z0-9+.-]*):\/\//i);
  if (scheme) {
    return `expected host:port without a scheme (${JSON.stringify(scheme[0])}), ${EXAMPLE}`;
  }
  const colon = address.lastIndexOf(":");
  const host = address.slice(0, colon);
  const bracketed = /^\[[0-9a-fA-F:.%a-zA-Z]+\]$/.test(host);
  if (colon < 0 || (address.startsWith("[") && !address.includes("]:"))) {
    return `no port; expected host:port (the gRPC port, 7943 by default), ${EXAMPLE}`;
  }
  if (host === "" || (host.includes(":") && !bracketed)) {
    return `expected host:port (IPv6 in brackets), ${EXAMPLE}`;
  }
  if (/[\s/]/.test(host)) return `the host ${JSON.stringify(host)} is not a host name or IP`;
  const port = address.slice(colon + 1);
  if (!/^\d+$/.test(port)) return `the port ${JSON.stringify(port)} is not a number, ${EXAMPLE}`;
  const n = Number(port);
  if (n < 1 || n > 65535) return `port ${n} is out of range (1-65535)`;
  return undefined;
}

function show(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
