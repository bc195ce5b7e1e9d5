import assert from "node:assert/strict";
import { palette, stripAnsi } from "./colour.ts";
import { renderKeyValues, renderTable } from "./table.ts";

Deno.test("renderTable pads every column to its widest cell and right-aligns numbers", () => {
  const text = renderTable(
    [{ header: "EXECUTOR" }, { header: "STATUS" }, { header: "SHARDS", align: "right" }],
    [["worker-1", "ACTIVE", "10"], ["w2", "DRAINING", "0"]],
  );
  assert.equal(
    text,
    [
      "EXECUTOR  STATUS    SHARDS",
      "worker-1  ACTIVE        10",
      "w2        DRAINING       0",
    ].join("\n"),
  );
});

Deno.test("renderTable aligns coloured cells by their visible width", () => {
  const paint = palette(true);
  const text = renderTable(
    [{ header: "ID" }, { header: "STATUS" }, { header: "N", align: "right" }],
    [["a", paint.green("ACTIVE"), "1"], ["bbb", paint.red("DEAD"), "22"]],
    { palette: paint },
  );
  assert.equal(
    stripAnsi(text),
    ["ID   STATUS   N", "a    ACTIVE   1", "bbb  DEAD    22"].join("\n"),
  );
  assert.ok(text.startsWith("\x1b[1mID\x1b[22m"), "the header is bold");
});

Deno.test("renderTable with no rows prints the header; a short row is a programming error", () => {
  assert.equal(renderTable([{ header: "A" }, { header: "B" }], []), "A  B");
  assert.throws(() => renderTable([{ header: "A" }, { header: "B" }], [["x"]]), RangeError);
});

Deno.test("renderKeyValues aligns values and indents continuation lines", () => {
  const text = renderKeyValues([["Executor", "a"], ["Metadata", "x=1\ny=2"], ["Empty", ""]]);
  assert.equal(text, "Executor  a\nMetadata  x=1\n          y=2\nEmpty");
});
