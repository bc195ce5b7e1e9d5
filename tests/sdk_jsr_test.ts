/**
 * Issue 39, a publishable package: the SDK staged as a JSR package
 * (`deno task sdk:jsr`) passes `deno publish --dry-run`, slow-types check
 * included, with no warning of its own. (The dry run needs no network;
 * publishing does, and JSR cannot be reached from CI.)
 */
import assert from "node:assert/strict";
import { publishJsr } from "../scripts/sdk_jsr.ts";

Deno.test("deno publish --dry-run of the staged SDK succeeds and warns about nothing of the package's", async () => {
  const { code, output } = await publishJsr();
  assert.equal(code, 0, output);
  assert.match(output, /Dry run complete/);
  // Deno's own note that protobuf.js's install script was not run comes from
  // resolving the npm dependencies (grpc-js → @grpc/proto-loader → protobufjs),
  // not from the package; anything else is a finding.
  const rest = output.replace(/╭[^╰]*Ignored build scripts[^╰]*╰─*/, "");
  assert.doesNotMatch(rest, /^\s*(warning|error)\b|╭ Warning/im, output);
});
