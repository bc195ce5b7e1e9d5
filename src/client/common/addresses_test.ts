import assert from "node:assert/strict";
import { parseAddresses } from "./addresses.ts";
import { InvalidOptionsError } from "./errors.ts";

Deno.test("parseAddresses accepts host:port, [ipv6]:port, one string or a list", () => {
  assert.deepEqual(parseAddresses("127.0.0.1:7943"), ["127.0.0.1:7943"]);
  assert.deepEqual(parseAddresses([" sm-1.internal:7943 ", "[::1]:1", "[fe80::1%eth0]:65535"]), [
    "sm-1.internal:7943",
    "[::1]:1",
    "[fe80::1%eth0]:65535",
  ]);
});

Deno.test("parseAddresses refuses each mistake with INVALID_OPTIONS, the value and the expected form", () => {
  const cases: [unknown, RegExp][] = [
    [[], /addresses must be "host:port" or a non-empty array of them \(e\.g\. 127\.0\.0\.1:7943/],
    [undefined, /got undefined/],
    ["", /"" is not a valid address: empty; expected host:port/],
    ["http://127.0.0.1:7943", /expected host:port without a scheme \("http:\/\/"\), e\.g\. 127/],
    ["grpc://sm:7943", /without a scheme \("grpc:\/\/"\)/],
    [
      "localhost",
      /"localhost" is not a valid address: no port; expected host:port \(the gRPC port/,
    ],
    ["[::1]", /no port/],
    ["::1:7943", /IPv6 in brackets/],
    [":7943", /expected host:port/],
    ["localhost:0", /port 0 is out of range \(1-65535\)/],
    ["localhost:65536", /port 65536 is out of range/],
    ["localhost:http", /the port "http" is not a number/],
    ["local host:1", /the host "local host" is not a host name or IP/],
    [[7943], /7943 is not a valid address: not a string/],
  ];
  for (const [value, message] of cases) {
    assert.throws(
      () => parseAddresses(value),
      (e: unknown) =>
        e instanceof InvalidOptionsError && e.code === "INVALID_OPTIONS" &&
        e.option === "addresses" && message.test(e.message),
      JSON.stringify(value),
    );
  }
});
