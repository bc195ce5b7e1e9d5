import assert from "node:assert/strict";
import { reportsFrom } from "../core/shared_reports.ts";
import { ReportsMemo, sameBytes } from "./reports_memo.ts";

const ready = (load: number) => reportsFrom({ "1": { status: "READY", load } });

Deno.test("ReportsMemo answers only for the same executor and exactly the same bytes", () => {
  const memo = new ReportsMemo();
  memo.remember("ns", "e1", Uint8Array.of(1, 2, 3), ready(1));
  assert.deepEqual(memo.lookup("ns", "e1", Uint8Array.of(1, 2, 3)), ready(1));
  assert.equal(memo.lookup("ns", "e1", Uint8Array.of(1, 2)), undefined, "shorter");
  assert.equal(memo.lookup("ns", "e1", Uint8Array.of(1, 2, 4)), undefined, "one byte differs");
  assert.equal(memo.lookup("ns", "e2", Uint8Array.of(1, 2, 3)), undefined, "another executor");
  assert.equal(memo.lookup("other", "e1", Uint8Array.of(1, 2, 3)), undefined, "another namespace");
});

Deno.test("ReportsMemo replaces what the same bytes stand for, and new bytes replace the entry", () => {
  const memo = new ReportsMemo();
  const recorded = ready(1.01);
  memo.remember("ns", "e1", Uint8Array.of(1), ready(1));
  memo.remember("ns", "e1", Uint8Array.of(1), recorded);
  assert.equal(memo.lookup("ns", "e1", Uint8Array.of(1)), recorded);
  memo.remember("ns", "e1", Uint8Array.of(2), ready(2));
  assert.equal(memo.lookup("ns", "e1", Uint8Array.of(1)), undefined);
  assert.equal(memo.size, 1);
  memo.forget("ns", "e1");
  assert.equal(memo.size, 0);
});

Deno.test("ReportsMemo starts over past its limit", () => {
  const memo = new ReportsMemo(2);
  for (const id of ["a", "b", "c"]) memo.remember("ns", id, Uint8Array.of(1), ready(1));
  assert.equal(memo.size, 1);
  assert.ok(memo.lookup("ns", "c", Uint8Array.of(1)));
});

Deno.test("sameBytes compares contents, not identity", () => {
  assert.ok(sameBytes(Uint8Array.of(), Uint8Array.of()));
  assert.ok(sameBytes(Uint8Array.of(1, 2).subarray(1), Uint8Array.of(2)));
  assert.ok(!sameBytes(Uint8Array.of(1, 2), Uint8Array.of(2, 1)));
});
