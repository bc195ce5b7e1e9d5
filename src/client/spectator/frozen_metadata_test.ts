import assert from "node:assert/strict";
import { frozenMetadata } from "./frozen_metadata.ts";

Deno.test("frozenMetadata holds only reported keys: no inherited toString or constructor", () => {
  const metadata = frozenMetadata({ address: "a:80" });
  assert.equal(metadata["address"], "a:80");
  assert.equal(metadata["toString"], undefined);
  assert.equal(metadata["constructor"], undefined);
  assert.deepEqual(Object.keys(metadata), ["address"]);
});
