import assert from "node:assert/strict";
import { confirmByRetyping, readLine } from "./confirm.ts";
import { SmctlError, UsageError } from "./errors.ts";

const bytes = (...chunks: string[]) =>
  ReadableStream.from(chunks.map((c) => new TextEncoder().encode(c)));

Deno.test("readLine returns the first line across chunks, without CR/LF", async () => {
  assert.equal(await readLine(bytes("ord", "ers\r\nmore\n")), "orders");
  assert.equal(await readLine(bytes("no newline")), "no newline");
  assert.equal(await readLine(bytes()), null);
});

const base = {
  expected: "orders",
  prompt: "Type it: ",
  write: () => {},
  action: 'reset namespace "orders"',
};

Deno.test("confirmByRetyping accepts the exact name and prompts first", async () => {
  const written: string[] = [];
  await confirmByRetyping({
    ...base,
    stdinIsTerminal: true,
    readAnswer: () => Promise.resolve(" orders "),
    write: (t) => written.push(t),
  });
  assert.deepEqual(written, ["Type it: "]);
});

Deno.test("confirmByRetyping refuses without a terminal, and on a wrong or missing answer", async () => {
  await assert.rejects(
    confirmByRetyping({ ...base, stdinIsTerminal: false, readAnswer: () => Promise.resolve("x") }),
    (error) => error instanceof UsageError && /pass --yes/.test(error.message),
  );
  for (const answer of ["order", null]) {
    await assert.rejects(
      confirmByRetyping({
        ...base,
        stdinIsTerminal: true,
        readAnswer: () => Promise.resolve(answer),
      }),
      (error) => error instanceof SmctlError && error.exitCode === 1,
    );
  }
});
