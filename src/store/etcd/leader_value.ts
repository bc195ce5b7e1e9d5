/**
 * The leader claim's stored form: a zero-padded term, a space, then JSON.
 * Leading with the padded term lets one etcd compare ("value less than")
 * refuse a claim from an older term.
 *
 * @module
 */
import type { LeaderClaim } from "../../core/types.ts";
import { encodeClaim } from "./codec.ts";

/** The zero-padded term, which sorts like the number. */
export function paddedTerm(term: number): string {
  return String(term).padStart(20, "0");
}

/** Encodes a claim for the leader key. */
export function encodeLeaderValue(claim: LeaderClaim): string {
  return `${paddedTerm(claim.term)} ${encodeClaim(claim)}`;
}

/** Returns the JSON part of a leader value. */
export function decodeLeaderValue(value: string): string {
  return value.slice(value.indexOf(" ") + 1);
}
