/**
 * `.ci/guard`, which runs every step of `.ci/run`, must make a failure
 * diagnosable from the end of CI's log alone: a native crash names the test
 * file, the test, the command, the signal and the last lines of stderr; a
 * child process's crash is named too; an ordinary failure lists the failed
 * tests and is not called a crash, although Deno prints a "Stack backtrace:"
 * after it when RUST_BACKTRACE is set (what issue 36 took for a crash).
 */
import assert from "node:assert/strict";

const ROOT = new URL("..", import.meta.url).pathname;
const CRASH_TEST = "tests/crash/deliberate_crash.ts";

async function guarded(how: string): Promise<{ code: number; output: string }> {
  const { code, stdout, stderr } = await new Deno.Command("bash", {
    args: [".ci/guard", `crash (${how})`, "--", Deno.execPath(), "test", "-A", CRASH_TEST],
    cwd: ROOT,
    env: { SM_CRASH: how, NO_COLOR: "1", RUST_BACKTRACE: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code, output: decode(stdout) + decode(stderr) };
}

/** The report block at the end of the output. */
function report(output: string): string {
  const at = output.lastIndexOf("==========\n", output.length - 80);
  return output.slice(output.lastIndexOf("\n\n=====", at));
}

for (const [how, signal, code] of [["abort", "SIGABRT", 134], ["segv", "SIGSEGV", 139]] as const) {
  Deno.test(`a test that dies of ${signal} is named at the end of CI's output`, async () => {
    const { code: exit, output } = await guarded(how);
    assert.equal(exit, code, output);
    const block = report(output);
    assert.match(block, /CRASH in CI step 'crash \(/, block);
    assert.match(block, new RegExp(`exit status:  ${code} \\(killed by ${signal}\\)`));
    assert.match(block, /command: .* test -A tests\/crash\/deliberate_crash\.ts/);
    assert.match(block, /test file: {4}\.\/tests\/crash\/deliberate_crash\.ts/);
    assert.match(block, /test running: the crashing test\n/);
    assert.match(block, new RegExp(`step: +the step that crashes \\(${how}\\)`));
    assert.match(block, /last 40 lines of stderr:/);
  });
}

Deno.test("a child process that aborts is reported with its command and stderr", async () => {
  const { code, output } = await guarded("child");
  assert.equal(code, 1, output);
  const block = report(output);
  assert.match(block, /CRASH in CI step/);
  assert.match(block, /step: +the step that crashes \(child\)/);
  assert.match(block, /CHILD PROCESS CRASHED: a deliberately aborting child \(killed by SIGABRT\)/);
  assert.match(block, /exit: code 134, signal SIGABRT/);
  assert.match(block, /\| the child is about to abort/);
});

Deno.test("an ordinary test failure lists the failed test and is not called a crash", async () => {
  const { code, output } = await guarded("fail");
  assert.equal(code, 1, output);
  assert.match(output, /Stack backtrace:/, "Deno printed its error backtrace (RUST_BACKTRACE=1)");
  const block = report(output);
  assert.doesNotMatch(block, /CRASH/);
  assert.match(block, /FAILED: CI step 'crash \(fail\)' \(exit status 1\)/);
  assert.match(block, /failed tests:\n.*the step that crashes \(fail\) => \.\/tests\/crash/);
});

Deno.test("a passing command prints nothing more", async () => {
  const { code, output } = await guarded("none");
  assert.equal(code, 0, output);
  assert.doesNotMatch(output, /CRASH|FAILED: CI step/);
});
