import assert from "node:assert/strict";
import {
  loadBucket,
  loadColour,
  loadPalette,
  ownerColour,
} from "../../../../packages/dashboard_browser/colour.js";

Deno.test("owner colours differ between neighbours and are stable per index", () => {
  const colours = Array.from({ length: 12 }, (_, i) => ownerColour(i));
  assert.equal(new Set(colours).size, 12);
  assert.equal(ownerColour(5), ownerColour(5));
  assert.match(ownerColour(7), /^hsl\(\d{1,3} 65% \d{2}%\)$/);
  assert.throws(() => ownerColour(-1), RangeError);
  assert.throws(() => ownerColour(1.5), /non-negative integer, got 1.5/);
});

Deno.test("the load scale runs from pale yellow to dark red and clamps", () => {
  assert.equal(loadColour(0), "#ffffcc");
  assert.equal(loadColour(1), "#800026");
  assert.equal(loadColour(-3), "#ffffcc");
  assert.equal(loadColour(7), "#800026");
  assert.equal(loadColour(Number.NaN), "#ffffcc");
  assert.match(loadColour(0.5), /^#[0-9a-f]{6}$/);
});

Deno.test("load palette has the asked steps, darker as load grows", () => {
  const palette = loadPalette(8);
  assert.equal(palette.length, 8);
  const green = (hex: string) => parseInt(hex.slice(3, 5), 16);
  for (let i = 1; i < palette.length; i++) {
    assert.ok(green(palette[i]!) <= green(palette[i - 1]!), `${palette[i - 1]} then ${palette[i]}`);
  }
  assert.throws(() => loadPalette(1), /from 2 to 256, got 1/);
});

Deno.test("load buckets map zero to the first step and the hottest to the last", () => {
  assert.equal(loadBucket(0, 8), 0);
  assert.equal(loadBucket(1, 8), 7);
  assert.equal(loadBucket(0.5, 8), 4);
  assert.equal(loadBucket(1.2, 8), 7);
  assert.equal(loadBucket(3 / 0, 8), 0, "no scale when the hottest load is 0");
  assert.equal(loadBucket(0 / 0, 8), 0);
  assert.equal(loadBucket(-1, 8), 0);
});
