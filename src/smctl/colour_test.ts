import assert from "node:assert/strict";
import { colourWanted, palette, stripAnsi, visibleWidth } from "./colour.ts";

Deno.test("colour only on a terminal, without NO_COLOR, outside --json", () => {
  assert.equal(colourWanted({ isTerminal: true, noColor: undefined, json: false }), true);
  assert.equal(colourWanted({ isTerminal: false, noColor: undefined, json: false }), false);
  assert.equal(colourWanted({ isTerminal: true, noColor: "1", json: false }), false);
  assert.equal(colourWanted({ isTerminal: true, noColor: "", json: false }), false);
  assert.equal(colourWanted({ isTerminal: true, noColor: undefined, json: true }), false);
});

Deno.test("a palette without colour leaves text alone; with colour it wraps and resets", () => {
  const off = palette(false);
  for (const f of [off.bold, off.dim, off.green, off.yellow, off.red, off.cyan]) {
    assert.equal(f("text"), "text");
  }
  const on = palette(true);
  assert.equal(on.green("ok"), "\x1b[32mok\x1b[39m");
  assert.equal(on.bold(""), "", "empty text gets no codes");
  assert.equal(stripAnsi(on.bold(on.red("x"))), "x");
});

Deno.test("visibleWidth ignores escape codes and counts code points", () => {
  assert.equal(visibleWidth(palette(true).yellow("DRAINING")), 8);
  assert.equal(visibleWidth("█░█"), 3);
});
