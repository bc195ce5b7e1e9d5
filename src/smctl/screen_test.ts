import assert from "node:assert/strict";
import { LiveScreen } from "./screen.ts";

Deno.test("LiveScreen hides the cursor, redraws over the last frame, and restores the cursor once", () => {
  const out: string[] = [];
  const screen = new LiveScreen((t) => out.push(t));
  screen.draw(["one", "two", "three"]);
  screen.draw(["four"]);
  screen.draw(["five", "six"]);
  screen.close();
  screen.close();
  screen.draw(["late"]);
  assert.deepEqual(out, [
    "\x1b[?25l",
    "one\ntwo\nthree\n",
    "\x1b[3A\x1b[Jfour\n",
    "\x1b[1A\x1b[Jfive\nsix\n",
    "\x1b[?25h",
  ]);
});
