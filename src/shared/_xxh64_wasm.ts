/**
 * The key hash's fastest path: XXH64 (seed 0) of an ASCII key in
 * WebAssembly, whose 64-bit integer multiply the JavaScript code has to
 * build from four 16-bit ones: about twice as fast as `_key_hash_ascii.ts`
 * (bench/ranges_bench.ts). The module (`xxh64.wat`, under 600 bytes) is
 * compiled the first time a key is hashed. Where WebAssembly is missing or
 * refused, or the host is big-endian (the copy of the key into the module's
 * memory assumes the host's byte order is WebAssembly's), the hash falls
 * back to the JavaScript code, which gives the same points (the tests check
 * both).
 *
 * @module
 */

/** The compiled `xxh64.wat`, in base64 (written by `deno task wasm`; checked by `deno task wasm:check`). */
export const XXH64_WASM =
  "AGFzbQEAAAABCwJgAn5+AX5gAX8AAwQDAAABBQMBAAEHEQIGbWVtb3J5AgAEaGFzaAACCpoEAyEAIAAgAULP1tO+0ser2UJ+fEIfiUKHla+vmLbem55/fgsjACAAQgAgARAAhUKHla+vmLbem55/fkLj3MqV/M7y9YV/fAvRAwICfwV+QQghAUEIIABqIQIgAEEgTwRAQtbrgu7q/Yn14AAhBELP1tO+0ser2UIhBUIAIQZC+erQ0OfJoeThACEHA0AgBCABKQMAEAAhBCAFIAEpAwgQACEFIAYgASkDEBAAIQYgByABKQMYEAAhByABQSBqIQEgAUEgaiACTQ0ACyAEQgGJIAVCB4l8IAZCDIkgB0ISiXx8IQMgAyAEEAEhAyADIAUQASEDIAMgBhABIQMgAyAHEAEhAwVCxc/ZsvHluuonIQMLIAMgAK18IQMCQANAIAFBCGogAksNASADQgAgASkDABAAhUIbiUKHla+vmLbem55/fkLj3MqV/M7y9YV/fCEDIAFBCGohAQwACwsgAUEEaiACTQRAIAMgATUCAEKHla+vmLbem55/foVCF4lCz9bTvtLHq9lCfkL5893xmfaZqxZ8IQMgAUEEaiEBCwJAA0AgASACTw0BIAMgATEAAELFz9my8eW66id+hUILiUKHla+vmLbem55/fiEDIAFBAWohAQwACwsgAyADQiGIhSEDIANCz9bTvtLHq9lCfiEDIAMgA0IdiIUhAyADQvnz3fGZ9pmrFn4hAyADIANCIIiFIQNBACADNwMACw==";

/** Where the key's bytes start in the module's memory (the hash is stored below). */
const OFFSET = 8;
/** Longest key the module's one page holds. */
const MAX_KEY = 65_536 - OFFSET;

let hash: ((len: number) => void) | undefined;
let bytes: Uint8Array | undefined;
let words: Uint32Array | undefined;
let unavailable = false;

/**
 * Writes XXH64 of `key` into `out` (`[high, low]`) and returns true when
 * `key` is all ASCII and at most 65,528 characters long and WebAssembly is
 * available; returns false (writing nothing that counts) otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hashAsciiWasm } from "./_xxh64_wasm.ts";
 *
 * const out = new Uint32Array(2);
 * if (hashAsciiWasm("a", out)) assert.deepEqual([...out], [0xd24ec4f1, 0xa98c6e5b]);
 * assert.equal(hashAsciiWasm("é", out), false);
 * ```
 */
export function hashAsciiWasm(key: string, out: Uint32Array): boolean {
  const n = key.length;
  if (n > MAX_KEY || (bytes === undefined && !load())) return false;
  // Four characters a store while they last (the memory is little-endian, as the host: see load).
  const w = words!, b = bytes!;
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const c0 = key.charCodeAt(i),
      c1 = key.charCodeAt(i + 1),
      c2 = key.charCodeAt(i + 2),
      c3 = key.charCodeAt(i + 3);
    if ((c0 | c1 | c2 | c3) >= 0x80) return false;
    w[(OFFSET + i) >>> 2] = c0 | (c1 << 8) | (c2 << 16) | (c3 << 24);
  }
  for (; i < n; i++) {
    const c = key.charCodeAt(i);
    if (c >= 0x80) return false;
    b[OFFSET + i] = c;
  }
  hash!(n);
  out[0] = w[1]!;
  out[1] = w[0]!;
  return true;
}

/**
 * The part of the WebAssembly API this file uses, declared here so that the
 * SDK compiles with or without the DOM's type library.
 */
interface WasmApi {
  readonly Module: new (code: Uint8Array) => object;
  readonly Instance: new (module: object, imports: object) => {
    readonly exports: Readonly<Record<string, unknown>>;
  };
}

function load(): boolean {
  if (unavailable) return false;
  try {
    const wasm = (globalThis as { readonly WebAssembly?: WasmApi }).WebAssembly;
    if (wasm === undefined) throw new Error("no WebAssembly here");
    // Typed arrays use the host's byte order and WebAssembly's memory is little-endian.
    if (new Uint8Array(Uint32Array.of(1).buffer)[0] !== 1) throw new Error("a big-endian host");
    const code = Uint8Array.from(atob(XXH64_WASM), (c) => c.charCodeAt(0));
    const instance = new wasm.Instance(new wasm.Module(code), {});
    const { buffer } = instance.exports["memory"] as { readonly buffer: ArrayBuffer };
    hash = instance.exports["hash"] as (len: number) => void;
    words = new Uint32Array(buffer);
    bytes = new Uint8Array(buffer);
    return true;
  } catch {
    unavailable = true; // no WebAssembly here (or a policy that refuses it): the JavaScript path
    return false;
  }
}
