import assert from "node:assert/strict";
import {
  aliveCell,
  bar,
  drainedCell,
  formatList,
  formatLoad,
  formatPairs,
  statusCell,
} from "./cells.ts";
import { palette } from "./colour.ts";

const plain = palette(false);
const colour = palette(true);

Deno.test("loads keep at most two decimals", () => {
  assert.equal(formatLoad(0), "0");
  assert.equal(formatLoad(10), "10");
  assert.equal(formatLoad(1.5), "1.5");
  assert.equal(formatLoad(2 / 3), "0.67");
  assert.equal(formatLoad(Infinity), "Infinity");
});

Deno.test("pairs are sorted by key; empty pairs and lists show a dash", () => {
  assert.equal(formatPairs({ zone: "b", addr: "h:1" }), "addr=h:1,zone=b");
  assert.equal(formatPairs({ zone: "b", addr: "h:1" }, "\n"), "addr=h:1\nzone=b");
  assert.equal(formatPairs({}), "-");
  assert.equal(formatList([]), "-");
  assert.equal(formatList(["a", "b"]), "a, b");
});

Deno.test("status, alive and drained cells colour what needs attention", () => {
  assert.equal(statusCell("ACTIVE", colour), colour.green("ACTIVE"));
  assert.equal(statusCell("DRAINING", colour), colour.yellow("DRAINING"));
  assert.equal(statusCell("INVALID", colour), colour.red("INVALID"));
  assert.equal(aliveCell(true, colour), "yes");
  assert.equal(aliveCell(false, colour), colour.red("no"));
  assert.equal(drainedCell(false, [], plain), "-");
  assert.equal(drainedCell(true, [], plain), "yes");
  assert.equal(drainedCell(true, ["id:a", "selector:z=b"], plain), "yes (id:a, selector:z=b)");
});

Deno.test("bars are proportional, clamped, and empty when there is nothing", () => {
  assert.equal(bar(0, 10, 4), "░░░░");
  assert.equal(bar(10, 10, 4), "████");
  assert.equal(bar(20, 10, 4), "████");
  assert.equal(bar(3, 0, 4), "░░░░");
});
