// deno-lint-ignore-file no-console -- a build script reports what it did
/**
 * Compiles `src/shared/xxh64.wat` (the key hash in WebAssembly) and writes
 * the module, in base64, into `src/shared/_xxh64_wasm.ts`. With `--check` it
 * writes nothing and exits 1 when the file does not hold what the source
 * compiles to (CI runs it, as `deno task wasm:check`).
 *
 * Run: `deno task wasm` (or `deno task wasm:check`)
 *
 * @module
 */
import wabtInit from "wabt";

const SOURCE = new URL("../src/shared/xxh64.wat", import.meta.url);
const TARGET = new URL("../src/shared/_xxh64_wasm.ts", import.meta.url);
const CONSTANT = /(export const XXH64_WASM =\s*)"[^"]*";/;

const wabt = await wabtInit();
const parsed = wabt.parseWat("xxh64.wat", await Deno.readTextFile(SOURCE));
parsed.validate();
const { buffer } = parsed.toBinary({});
parsed.destroy();
let binary = "";
for (const byte of buffer) binary += String.fromCharCode(byte);
const encoded = btoa(binary);

const text = await Deno.readTextFile(TARGET);
const match = CONSTANT.exec(text);
if (match === null) {
  console.error(`${TARGET.pathname} has no XXH64_WASM constant to write`);
  Deno.exit(2);
}
const next = text.replace(CONSTANT, `$1"${encoded}";`);
if (Deno.args.includes("--check")) {
  if (next !== text) {
    console.error(
      "src/shared/_xxh64_wasm.ts does not hold what src/shared/xxh64.wat compiles to: run `deno task wasm`",
    );
    Deno.exit(1);
  }
  console.log(`src/shared/_xxh64_wasm.ts matches xxh64.wat (${buffer.length} bytes)`);
} else {
  await Deno.writeTextFile(TARGET, next);
  console.log(`wrote src/shared/_xxh64_wasm.ts (${buffer.length} bytes of WebAssembly)`);
}
