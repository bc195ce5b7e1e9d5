;; XXH64 (xxHash, 64-bit, seed 0) on WebAssembly's 64-bit integers: the
;; fast path of the key hash (src/shared/key_hash.ts) for ASCII keys.
;; The caller writes the key's bytes at offset 8 of the memory and calls
;; `hash(len)`; the hash is stored at offset 0 (little-endian: the low 32
;; bits at 0, the high 32 bits at 4). One page: keys up to 65,528 bytes.
;;
;; Compiled into src/shared/_xxh64_wasm.ts by `deno task wasm`;
;; `deno task wasm:check` fails when the two differ.
(module
  (memory (export "memory") 1)
  ;; round(acc, lane) = rotl(acc + lane * P2, 31) * P1
  (func $round (param $acc i64) (param $lane i64) (result i64)
    (i64.mul
      (i64.rotl
        (i64.add (local.get $acc) (i64.mul (local.get $lane) (i64.const 0xC2B2AE3D27D4EB4F)))
        (i64.const 31))
      (i64.const 0x9E3779B185EBCA87)))
  ;; merge(acc, v) = (acc ^ round(0, v)) * P1 + P4
  (func $merge (param $acc i64) (param $v i64) (result i64)
    (i64.add
      (i64.mul
        (i64.xor (local.get $acc) (call $round (i64.const 0) (local.get $v)))
        (i64.const 0x9E3779B185EBCA87))
      (i64.const 0x85EBCA77C2B2AE63)))
  ;; XXH64 (seed 0) of the `len` bytes at offset 8, stored at offset 0.
  (func (export "hash") (param $len i32)
    (local $p i32) (local $end i32) (local $h i64)
    (local $v1 i64) (local $v2 i64) (local $v3 i64) (local $v4 i64)
    (local.set $p (i32.const 8))
    (local.set $end (i32.add (i32.const 8) (local.get $len)))
    (if (i32.ge_u (local.get $len) (i32.const 32))
      (then
        (local.set $v1 (i64.const 0x60EA27EEADC0B5D6)) ;; P1 + P2
        (local.set $v2 (i64.const 0xC2B2AE3D27D4EB4F))
        (local.set $v3 (i64.const 0))
        (local.set $v4 (i64.const 0x61C8864E7A143579)) ;; -P1
        (loop $stripes
          (local.set $v1 (call $round (local.get $v1) (i64.load (local.get $p))))
          (local.set $v2 (call $round (local.get $v2) (i64.load offset=8 (local.get $p))))
          (local.set $v3 (call $round (local.get $v3) (i64.load offset=16 (local.get $p))))
          (local.set $v4 (call $round (local.get $v4) (i64.load offset=24 (local.get $p))))
          (local.set $p (i32.add (local.get $p) (i32.const 32)))
          (br_if $stripes (i32.le_u (i32.add (local.get $p) (i32.const 32)) (local.get $end))))
        (local.set $h
          (i64.add
            (i64.add (i64.rotl (local.get $v1) (i64.const 1)) (i64.rotl (local.get $v2) (i64.const 7)))
            (i64.add (i64.rotl (local.get $v3) (i64.const 12)) (i64.rotl (local.get $v4) (i64.const 18)))))
        (local.set $h (call $merge (local.get $h) (local.get $v1)))
        (local.set $h (call $merge (local.get $h) (local.get $v2)))
        (local.set $h (call $merge (local.get $h) (local.get $v3)))
        (local.set $h (call $merge (local.get $h) (local.get $v4))))
      (else (local.set $h (i64.const 0x27D4EB2F165667C5))))
    (local.set $h (i64.add (local.get $h) (i64.extend_i32_u (local.get $len))))
    (block $done8
      (loop $eights
        (br_if $done8 (i32.gt_u (i32.add (local.get $p) (i32.const 8)) (local.get $end)))
        (local.set $h
          (i64.add
            (i64.mul
              (i64.rotl
                (i64.xor (local.get $h) (call $round (i64.const 0) (i64.load (local.get $p))))
                (i64.const 27))
              (i64.const 0x9E3779B185EBCA87))
            (i64.const 0x85EBCA77C2B2AE63)))
        (local.set $p (i32.add (local.get $p) (i32.const 8)))
        (br $eights)))
    (if (i32.le_u (i32.add (local.get $p) (i32.const 4)) (local.get $end))
      (then
        (local.set $h
          (i64.add
            (i64.mul
              (i64.rotl
                (i64.xor (local.get $h)
                  (i64.mul (i64.load32_u (local.get $p)) (i64.const 0x9E3779B185EBCA87)))
                (i64.const 23))
              (i64.const 0xC2B2AE3D27D4EB4F))
            (i64.const 0x165667B19E3779F9)))
        (local.set $p (i32.add (local.get $p) (i32.const 4)))))
    (block $done1
      (loop $ones
        (br_if $done1 (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $h
          (i64.mul
            (i64.rotl
              (i64.xor (local.get $h)
                (i64.mul (i64.load8_u (local.get $p)) (i64.const 0x27D4EB2F165667C5)))
              (i64.const 11))
            (i64.const 0x9E3779B185EBCA87)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $ones)))
    (local.set $h (i64.xor (local.get $h) (i64.shr_u (local.get $h) (i64.const 33))))
    (local.set $h (i64.mul (local.get $h) (i64.const 0xC2B2AE3D27D4EB4F)))
    (local.set $h (i64.xor (local.get $h) (i64.shr_u (local.get $h) (i64.const 29))))
    (local.set $h (i64.mul (local.get $h) (i64.const 0x165667B19E3779F9)))
    (local.set $h (i64.xor (local.get $h) (i64.shr_u (local.get $h) (i64.const 32))))
    (i64.store (i32.const 0) (local.get $h))))
