import assert from "node:assert/strict";
import { listenProblem, parseListenAddress } from "./listen_check.ts";

Deno.test("parseListenAddress takes host:port apart and names what is wrong", () => {
  assert.deepEqual(parseListenAddress("[::1]:0"), { hostname: "::1", port: 0 });
  assert.equal(parseListenAddress("127.0.0.1"), "expected host:port");
  assert.equal(parseListenAddress(":7943"), "expected host:port");
  assert.equal(parseListenAddress("h:x"), 'port "x" is not a number');
  assert.equal(parseListenAddress("h:65536"), "port 65536 is out of range (0-65535)");
});

Deno.test("listenProblem finds a port in use and leaves a free one free", () => {
  const held = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const address = { hostname: "127.0.0.1", port: held.addr.port };
  assert.equal(listenProblem(address), "the address is already in use");
  held.close();
  assert.equal(listenProblem(address), undefined);
  assert.equal(listenProblem(address), undefined, "the check released the port again");
});
