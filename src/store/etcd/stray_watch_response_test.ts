import assert from "node:assert/strict";
import { jsonLogger } from "../../core/logger.ts";
import { ignoreStrayWatchResponses, isStrayWatchResponse } from "./stray_watch_response.ts";

const STRAY = "Failed to find watcher for IWatchResponse Please report this error at " +
  "https://github.com/microsoft/etcd3";

Deno.test("etcd3's error for a response to a forgotten watcher does not end the process", async () => {
  const lines: string[] = [];
  const remove = ignoreStrayWatchResponses(jsonLogger("warn", {}, (l) => lines.push(l)));
  try {
    // Unhandled, as etcd3's data handler leaves it: without the guard this test fails.
    void Promise.reject(new Error(STRAY));
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(lines.length, 1);
    assert.match(JSON.parse(lines[0]!).msg, /no longer has/);
  } finally {
    remove();
  }
});

Deno.test("only that error is dropped", () => {
  assert.equal(isStrayWatchResponse(new Error(STRAY)), true);
  assert.equal(
    isStrayWatchResponse(new Error("Could not find watcher corresponding to create response")),
    false,
  );
  assert.equal(isStrayWatchResponse("Failed to find watcher for IWatchResponse"), false);
  const remove = ignoreStrayWatchResponses(jsonLogger("warn", {}, () => {}));
  try {
    const event = new ErrorEvent("error", { error: new TypeError("boom"), cancelable: true });
    globalThis.dispatchEvent(event);
    assert.equal(event.defaultPrevented, false);
  } finally {
    remove();
  }
});
