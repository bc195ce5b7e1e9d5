import assert from "node:assert/strict";
import {
  decodeStatusDetails,
  detailTypeUrl,
  encodeStatusDetails,
  type ErrorDetail,
  packErrorDetail,
  unpackErrorDetail,
} from "./error_details.ts";
import { decodeRpcStatus, encodeRpcStatus } from "./_rpc_status.ts";

const DETAILS: ErrorDetail[] = [
  { type: "NamespaceNotFoundError", namespace: "orders" },
  { type: "ShardNotFoundError", namespace: "orders", shardKey: "k-ü-😀" },
  { type: "ShardDrainedError", namespace: "orders", shardKey: "4" },
  {
    type: "EphemeralShardLimitExceededError",
    namespace: "eph",
    maxLimit: 100_000,
    currentValue: 2 ** 40,
  },
];

Deno.test("every detail survives the trip through google.rpc.Status bytes", () => {
  for (const detail of DETAILS) {
    const bytes = encodeStatusDetails(9, `refused: ${detail.type} é`, detail);
    const status = decodeStatusDetails(bytes);
    assert.equal(status.code, 9);
    assert.equal(status.message, `refused: ${detail.type} é`);
    assert.equal(status.details[0]?.typeUrl, detailTypeUrl(detail.type));
    assert.deepEqual(status.detail, detail);
  }
});

Deno.test("the detail messages use upstream's field numbers", () => {
  // ShardNotFoundError{namespace = 1 "a", shard_key = 2 "b"}: 0a 01 61 12 01 62.
  assert.deepEqual(
    [...packErrorDetail({ type: "ShardNotFoundError", namespace: "a", shardKey: "b" }).value],
    [0x0a, 1, 0x61, 0x12, 1, 0x62],
  );
  // EphemeralShardLimitExceededError{namespace = 1, max_limit = 2, current_value = 3} as varints.
  assert.deepEqual(
    [
      ...packErrorDetail({
        type: "EphemeralShardLimitExceededError",
        namespace: "e",
        maxLimit: 20,
        currentValue: 300,
      }).value,
    ],
    [0x0a, 1, 0x65, 0x10, 20, 0x18, 0xac, 0x02],
  );
});

Deno.test("details of other types are kept packed and skipped when looking for ours", () => {
  const foreign = {
    typeUrl: "type.googleapis.com/google.rpc.RetryInfo",
    value: new Uint8Array([8, 1]),
  };
  const ours = packErrorDetail(DETAILS[0]!);
  const status = decodeStatusDetails(
    encodeRpcStatus({ code: 5, message: "m", details: [foreign, ours] }),
  );
  assert.equal(status.details.length, 2);
  assert.equal(unpackErrorDetail(foreign), undefined);
  assert.deepEqual(status.detail, DETAILS[0]);
});

Deno.test("a status with unknown fields, a zero code or no details decodes; garbage is a RangeError", () => {
  // Field 15 (varint) and field 14 (fixed64) before the message.
  const withUnknown = new Uint8Array([0x78, 1, 0x71, 0, 0, 0, 0, 0, 0, 0, 0, 0x12, 1, 0x78]);
  assert.deepEqual(decodeRpcStatus(withUnknown), { code: 0, message: "x", details: [] });
  assert.deepEqual(decodeRpcStatus(new Uint8Array()), { code: 0, message: "", details: [] });
  assert.equal(decodeRpcStatus(encodeRpcStatus({ code: -1, message: "", details: [] })).code, -1);
  for (const garbage of [[0x12, 5, 0x61], [0x08], [0x0b], [0x12, 1, 0xff]]) {
    assert.throws(() => decodeRpcStatus(new Uint8Array(garbage)), RangeError, String(garbage));
  }
});
