// @ts-check
/**
 * The mistakes a new user makes, run by `node --test` on Node.js and by
 * `deno test` on Deno: each must fail within 2 s with the documented `code`
 * (docs/sdk_executor.md and docs/sdk_spectator.md, "Errors"), never hang or
 * retry forever.
 *
 * Environment: SM_ADDRESS (the gRPC port), SM_HTTP_ADDRESS (the HTTP port of
 * the same service), SM_NAMESPACE (a namespace that exists).
 *
 * @module
 */
import assert from "node:assert/strict";
import process from "node:process";
import { test } from "node:test";
import {
  Executor,
  LeaderSelector,
  ShardManagerError,
  Spectator,
} from "../../../packages/sdk/mod.ts";

const ADDRESS = process.env.SM_ADDRESS ?? "";
const HTTP_ADDRESS = process.env.SM_HTTP_ADDRESS ?? "";
const NAMESPACE = process.env.SM_NAMESPACE ?? "";
const PORT = ADDRESS.slice(ADDRESS.lastIndexOf(":") + 1);

/**
 * Runs `attempt` (which must throw or reject) and returns its error, failing
 * the test if it takes 2 s or more.
 * @param {() => unknown} attempt
 * @returns {Promise<ShardManagerError>}
 */
async function failsFast(attempt) {
  const startedAt = Date.now();
  /** @type {unknown} */
  let error;
  try {
    await attempt();
  } catch (thrown) {
    error = thrown;
  }
  const took = Date.now() - startedAt;
  assert.ok(error instanceof ShardManagerError, `a ShardManagerError, got ${String(error)}`);
  assert.ok(took < 2_000, `failed within 2 s, took ${took} ms`);
  return error;
}

/** @param {string | string[]} addresses @param {string} namespace */
const executor = (addresses, namespace) =>
  new Executor({ addresses, namespace, processor: () => {} }).start({ timeoutMs: 10_000 });
/** @param {string | string[]} addresses @param {string} namespace */
const spectator = (addresses, namespace) =>
  new Spectator({ addresses, namespace }).start({ timeoutMs: 10_000 });

test("a misspelt namespace: NAMESPACE_NOT_FOUND, naming it", async () => {
  assert.ok(ADDRESS && HTTP_ADDRESS && NAMESPACE, "set SM_ADDRESS, SM_HTTP_ADDRESS, SM_NAMESPACE");
  const wrong = `${NAMESPACE}-typo`;
  for (const start of [executor, spectator]) {
    const error = await failsFast(() => start(ADDRESS, wrong));
    assert.equal(error.code, "NAMESPACE_NOT_FOUND");
    assert.equal(error.retryable, false);
    assert.equal(error.grpcCode, 5);
    assert.deepEqual(error.details, { type: "NamespaceNotFoundError", namespace: wrong });
    assert.match(error.message, new RegExp(`Namespace "${wrong}" not found at ${ADDRESS}`));
  }
  const leader = await failsFast(() =>
    new LeaderSelector({ addresses: ADDRESS, namespace: wrong, takeLeadership: () => {} }).start()
  );
  assert.equal(leader.code, "NAMESPACE_NOT_FOUND");
});

test("the HTTP port instead of the gRPC port: NOT_GRPC_ENDPOINT, naming the port to use", async () => {
  for (const start of [executor, spectator]) {
    const error = await failsFast(() => start(HTTP_ADDRESS, NAMESPACE));
    assert.equal(error.code, "NOT_GRPC_ENDPOINT");
    assert.equal(error.retryable, false);
    assert.match(error.message, /looks like the HTTP port .*gRPC port \(server\.grpcAddress, 7943/);
  }
});

test("a URL instead of host:port: INVALID_OPTIONS at construction, showing the form", async () => {
  for (const start of [executor, spectator]) {
    const error = await failsFast(() => start(`http://${ADDRESS}`, NAMESPACE));
    assert.equal(error.code, "INVALID_OPTIONS");
    assert.match(error.message, /expected host:port without a scheme/);
  }
});

test("a missing or bad port: INVALID_OPTIONS at construction, never port 443", async () => {
  for (const address of ["localhost", `localhost:${PORT}0000`, "localhost:0", "localhost:http"]) {
    for (const start of [executor, spectator]) {
      const error = await failsFast(() => start([address], NAMESPACE));
      assert.equal(error.code, "INVALID_OPTIONS", address);
      assert.match(error.message, new RegExp(`"${address}" is not a valid address`));
    }
  }
});
