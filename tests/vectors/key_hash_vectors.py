#!/usr/bin/env python3
"""Writes key_hash_vectors.json: XXH64 (seed 0) of keys' UTF-8 bytes, computed by
the reference C library (libxxhash, Debian package libxxhash0) through Python's
ctypes, independently of the TypeScript code in src/shared/key_hash.ts.

Run: python3 tests/vectors/key_hash_vectors.py > tests/vectors/key_hash_vectors.json
"""
import ctypes
import json
import sys

lib = ctypes.CDLL("libxxhash.so.0")
lib.XXH64.restype = ctypes.c_uint64
lib.XXH64.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint64]
lib.XXH_versionNumber.restype = ctypes.c_uint

KEYS = [
    "", "a", "ab", "abc", "abcd", "abcdefg", "abcdefgh", "abcdefghi",
    "hello world", "shard-0", "shard-1", "user:42", "tenant/acme/orders/1",
    "0123456789abcdef0123456789abcde",  # 31 bytes: below the 32-byte stripe
    "0123456789abcdef0123456789abcdef",  # exactly one stripe
    "0123456789abcdef0123456789abcdef0123456789",  # stripe + lane + tail
    "é", "naïve café", "日本語のキー", "Ελληνικά", "emoji 🎉 key", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
    "x" * 100, "long key " * 120, "\u0000", "tab\tnewline\n", "abcde", "shard-42/13",
]


def main():
    version = lib.XXH_versionNumber()
    vectors = []
    for key in KEYS:
        data = key.encode("utf-8")
        vectors.append({"key": key, "utf8Bytes": len(data), "xxh64": "%016x" % lib.XXH64(data, len(data), 0)})
    json.dump({
        "hash": "XXH64, seed 0, of the key's UTF-8 bytes; xxh64 in canonical big-endian hex",
        "checkedWith": "libxxhash %d.%d.%d (reference C library) via Python ctypes" % (
            version // 10000, version // 100 % 100, version % 100),
        "vectors": vectors,
    }, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


main()
