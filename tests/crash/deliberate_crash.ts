/**
 * A test that crashes on purpose, for `tests/ci_guard_test.ts`: it shows that
 * when a process of CI dies natively, `.ci/guard` names the test, the command,
 * the signal and the last lines of stderr. Kept out of the default run
 * (its name does not end in `_test.ts`, so `deno test` finds it only when named);
 * `SM_CRASH` says how to die:
 * - `abort`: this process calls libc's `abort()` (SIGABRT, as nghttp2's failed
 *   assertion did under Deno 2.9.4);
 * - `segv`: this process calls a function at address 8 (SIGSEGV);
 * - `child`: a child process aborts, seen by the harness's crash report;
 * - `fail`: the step throws, an ordinary failure and no crash;
 * - anything else: every test passes.
 *
 * ```sh
 * SM_CRASH=abort .ci/guard crash -- deno test -A tests/crash/deliberate_crash.ts
 * ```
 *
 * @module
 */
import assert from "node:assert/strict";
import { reportChildCrash } from "../support/child_crash.ts";

const how = Deno.env.get("SM_CRASH");

/** The same native `abort()` for this process and for the child. */
const ABORT =
  `Deno.dlopen("libc.so.6", { abort: { parameters: [], result: "void" } }).symbols.abort();`;

Deno.test("a test before the crash passes", () => {});

Deno.test("the crashing test", async (t) => {
  await t.step("a step before the crash passes", () => {});
  await t.step(`the step that crashes (${how})`, async () => {
    // deno-lint-ignore no-console -- a line of stderr the crash report must show
    console.error(`about to crash by ${how}`);
    if (how === "abort" || how === "segv") {
      // deno test prints a step's name and its console output from another thread: without a
      // moment for it, a crash under load took them along (CI's log then had neither).
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    if (how === "abort") new Function(ABORT)();
    if (how === "segv") {
      const definition = { parameters: [], result: "void" } as const;
      const at8 = Deno.UnsafePointer.create<typeof definition>(8n)!;
      new Deno.UnsafeFnPointer(at8, definition).call();
    }
    if (how === "child") {
      const args = ["eval", `console.error("the child is about to abort"); ${ABORT}`];
      const { code, signal, success, stderr } = await new Deno.Command(Deno.execPath(), {
        args,
        stdout: "null",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(stderr);
      reportChildCrash("a deliberately aborting child", [Deno.execPath(), ...args], {
        code,
        signal,
        success,
      }, text);
      assert.ok(success, "the child crashed");
    }
    if (how === "fail") throw new Error("an ordinary failure");
    if (["abort", "segv", "child"].includes(how ?? "")) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  });
});

Deno.test("a test after the crash", () => {});
