import assert from "node:assert/strict";
import { checkAddress } from "./address.ts";

Deno.test("checkAddress accepts host:port, bracketed IPv6 and gRPC URIs", () => {
  for (const ok of ["127.0.0.1:7943", "sm.internal:1", "[::1]:7943", "unix:/run/sm.sock"]) {
    assert.equal(checkAddress(ok), ok);
  }
});

Deno.test("checkAddress names the flag, the value and what is wrong", () => {
  assert.throws(() => checkAddress("127.0.0.1:99999"), /port 99999 is out of range \(1-65535\)/);
  assert.throws(() => checkAddress("127.0.0.1:0"), /port 0 is out of range/);
  assert.throws(() => checkAddress("127.0.0.1:abc"), /port "abc" is not a number/);
  assert.throws(() => checkAddress("sm.internal"), /"sm.internal": expected host:port/);
  assert.throws(() => checkAddress("http://x:1"), /without a scheme/);
  assert.throws(() => checkAddress("::1:7943", "--endpoints"), /^UsageError: --endpoints/);
});
