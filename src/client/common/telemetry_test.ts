import assert from "node:assert/strict";
import { recordingMeter, recordingTracer } from "./_recording_telemetry.ts";
import { INSTRUMENTATION_NAME, resolveMeter, resolveTracer, SDK_VERSION } from "./telemetry.ts";

const KEY = Symbol.for("opentelemetry.js.api.1");

Deno.test("the global providers registered by @opentelemetry/api 1.x are found under its shared key", () => {
  const { meter } = recordingMeter();
  const { tracer } = recordingTracer();
  const asked: string[] = [];
  const global = globalThis as Record<symbol, unknown>;
  assert.equal(resolveMeter(undefined), undefined, "nothing registered: no meter");
  global[KEY] = {
    version: "1.10.0",
    metrics: {
      getMeter: (name: string, version: string) => (asked.push(`${name}@${version}`), meter),
    },
    trace: {
      getTracer: (name: string, version: string) => (asked.push(`${name}@${version}`), tracer),
    },
  };
  try {
    assert.equal(resolveMeter(undefined), meter);
    assert.equal(resolveTracer(undefined), tracer);
    assert.deepEqual(asked, [
      `${INSTRUMENTATION_NAME}@${SDK_VERSION}`,
      `${INSTRUMENTATION_NAME}@${SDK_VERSION}`,
    ]);
    assert.equal(resolveMeter(false), undefined, "false turns the global one off");
    const own = recordingMeter().meter;
    assert.equal(resolveMeter(own), own, "an explicit meter wins");
  } finally {
    delete global[KEY];
  }
});

Deno.test("SDK_VERSION is the package's version", async () => {
  const manifest = JSON.parse(
    await Deno.readTextFile(new URL("../../../packages/sdk/deno.json", import.meta.url)),
  ) as { version: string };
  assert.equal(SDK_VERSION, manifest.version);
});
