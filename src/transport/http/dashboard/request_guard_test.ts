import assert from "node:assert/strict";
import { checkPost } from "./request_guard.ts";

function post(headers: Record<string, string>, url = "http://127.0.0.1:7944/api/x") {
  return new Request(url, { method: "POST", headers, body: "{}" });
}

Deno.test("a JSON POST from the same host, or from no browser, passes", () => {
  assert.equal(checkPost(post({ "content-type": "application/json" })), undefined);
  assert.equal(
    checkPost(post({ "content-type": "Application/JSON; charset=utf-8" })),
    undefined,
  );
  assert.equal(
    checkPost(post({ "content-type": "application/json", origin: "http://127.0.0.1:7944" })),
    undefined,
  );
  assert.equal(
    checkPost(post({
      "content-type": "application/json",
      origin: "https://sm.example",
      host: "sm.example",
    })),
    undefined,
    "the Host header wins over the URL (behind a proxy)",
  );
});

Deno.test("a POST without a JSON content type is refused with 415", () => {
  for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/jsonx"]) {
    const refusal = checkPost(post({ "content-type": type }));
    assert.equal(refusal?.status, 415, type);
    assert.match(refusal.message, /content-type: application\/json, got/);
  }
  assert.equal(checkPost(post({}))?.status, 415);
});

Deno.test("a POST from another origin is refused with 403", () => {
  for (const origin of ["http://evil.example", "http://127.0.0.1:7945", "null", "::"]) {
    const refusal = checkPost(post({ "content-type": "application/json", origin }));
    assert.equal(refusal?.status, 403, origin);
    assert.match(refusal.message, /Cross-origin action refused/);
  }
});
