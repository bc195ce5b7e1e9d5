import assert from "node:assert/strict";
import { readSecret, sha256Hex } from "./secrets.ts";

Deno.test("readSecret takes the value inline, from the environment or from a file", async () => {
  const sources = {
    env: (name: string) => name === "SET" ? "from-env" : undefined,
    readFile: (path: string) =>
      path === "ok" ? Promise.resolve("  from-file\n") : Promise.reject(new Error("No such file")),
  };
  assert.equal(await readSecret({ value: "inline" }, "x", sources), "inline");
  assert.equal(await readSecret({ env: "SET" }, "x", sources), "from-env");
  assert.equal(await readSecret({ file: "ok" }, "x", sources), "from-file");
});

Deno.test("readSecret names the secret and the source when it cannot read it", async () => {
  const sources = {
    env: () => undefined,
    readFile: (path: string) =>
      path === "blank" ? Promise.resolve(" \n") : Promise.reject(new Error("No such file")),
  };
  await assert.rejects(
    readSecret({ env: "MISSING" }, "tokens[0]", sources),
    /tokens\[0\]: environment variable MISSING is not set or empty/,
  );
  await assert.rejects(
    readSecret({ file: "/nope" }, "tokens[1]", sources),
    /tokens\[1\]: cannot read \/nope: No such file/,
  );
  await assert.rejects(readSecret({ file: "blank" }, "p", sources), /p: file blank is empty/);
});

Deno.test("sha256Hex matches sha256sum", async () => {
  assert.equal(
    await sha256Hex("abc"),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
});
