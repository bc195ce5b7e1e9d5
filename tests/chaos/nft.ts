/**
 * Packet filters for the chaos harness's network namespaces: what to drop,
 * written as an nftables ruleset (a pure function, {@linkcode nftRuleset}),
 * and applied inside one namespace with `ip netns exec NAME nft -f -`
 * ({@linkcode applyRules}). A namespace holds one table, `inet smc`; applying
 * rules replaces the previous ones, {@linkcode clearRules} removes them all.
 *
 * Rules act on IPv4 addresses only (the harness's namespaces have no other
 * kind) and on every protocol, so a partition is a real one: no packet
 * crosses, in either direction, and open TCP connections hang until their
 * own timeouts instead of being reset.
 *
 * @module
 */

/** Traffic one rule drops, seen from inside the namespace the rule is applied in. */
export type NetRule =
  /** Every packet to or from `peers`: a full partition. */
  | { readonly kind: "partition"; readonly peers: readonly string[] }
  /** Packets arriving from `peers` (`percent` of them, default all): one-way loss inbound. */
  | { readonly kind: "drop-in"; readonly peers: readonly string[]; readonly percent?: number }
  /** Packets leaving for `peers` (`percent` of them, default all): one-way loss outbound. */
  | { readonly kind: "drop-out"; readonly peers: readonly string[]; readonly percent?: number };

/** The name of the one table the harness writes in a namespace. */
export const NFT_TABLE = "smc";

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function addressSet(peers: readonly string[]): string {
  if (peers.length === 0) throw new RangeError("A rule needs at least one peer address, got none");
  for (const peer of peers) {
    const m = IPV4.exec(peer);
    if (m === null || m.slice(1).some((octet) => Number(octet) > 255)) {
      throw new TypeError(`A peer must be an IPv4 address, got ${JSON.stringify(peer)}`);
    }
  }
  return `{ ${peers.join(", ")} }`;
}

function share(percent: number | undefined): string {
  if (percent === undefined || percent === 100) return "";
  if (!Number.isInteger(percent) || percent < 1 || percent > 100) {
    throw new RangeError(`percent must be an integer from 1 to 100, got ${percent}`);
  }
  return ` numgen random mod 100 < ${percent}`;
}

/**
 * The nftables script that replaces the namespace's table with `rules`
 * (an empty list leaves an empty table: nothing is dropped).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nftRuleset } from "./nft.ts";
 *
 * const script = nftRuleset([{ kind: "drop-out", peers: ["10.231.7.20"], percent: 5 }]);
 * assert.match(script, /ip daddr \{ 10\.231\.7\.20 \} numgen random mod 100 < 5 drop/);
 * assert.throws(() => nftRuleset([{ kind: "partition", peers: ["nowhere"] }]), /IPv4/);
 * ```
 */
export function nftRuleset(rules: readonly NetRule[]): string {
  const input: string[] = [];
  const output: string[] = [];
  for (const rule of rules) {
    const peers = addressSet(rule.peers);
    switch (rule.kind) {
      case "partition":
        input.push(`ip saddr ${peers} drop`);
        output.push(`ip daddr ${peers} drop`);
        break;
      case "drop-in":
        input.push(`ip saddr ${peers}${share(rule.percent)} drop`);
        break;
      case "drop-out":
        output.push(`ip daddr ${peers}${share(rule.percent)} drop`);
        break;
      default:
        throw new TypeError(
          `Unknown rule kind ${JSON.stringify((rule as { kind: unknown }).kind)}`,
        );
    }
  }
  const chain = (name: string, hook: string, lines: string[]) =>
    [
      `  chain ${name} {`,
      `    type filter hook ${hook} priority 0; policy accept;`,
      ...lines.map((l) => `    ${l}`),
      "  }",
    ].join("\n");
  // Declaring the table first makes the delete succeed when it does not exist yet.
  return [
    `table inet ${NFT_TABLE}`,
    `delete table inet ${NFT_TABLE}`,
    `table inet ${NFT_TABLE} {`,
    chain("input", "input", input),
    chain("output", "output", output),
    "}",
    "",
  ].join("\n");
}

/** Replaces the rules of namespace `netns` with `rules` (as root). */
export async function applyRules(netns: string, rules: readonly NetRule[]): Promise<void> {
  await nft(netns, nftRuleset(rules));
}

/** Removes every rule the harness applied in namespace `netns`. */
export async function clearRules(netns: string): Promise<void> {
  await nft(netns, `table inet ${NFT_TABLE}\ndelete table inet ${NFT_TABLE}\n`);
}

async function nft(netns: string, script: string): Promise<void> {
  const child = new Deno.Command("ip", {
    args: ["netns", "exec", netns, "nft", "-f", "-"],
    stdin: "piped",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(script));
  await writer.close();
  const { success, stderr } = await child.output();
  if (!success) {
    throw new Error(
      `nft in namespace ${netns} failed: ${new TextDecoder().decode(stderr).trim()}`,
    );
  }
}
