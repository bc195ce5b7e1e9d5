"""An independent client of Shard Manager: Python grpcio with stubs generated
at run time from upstream's compiled contract (proto/upstream/*.binpb) by
grpc_tools' protoc. Called by tests/wire_upstream_python_test.ts as

    python3 upstream_client.py <image.binpb> <address> <work dir>

It makes the calls and prints one JSON object per line describing what came
back; the Deno test asserts on them. Nothing here knows this project's code.
"""
import json
import os
import sys

from grpc_tools import protoc

IMAGE, ADDRESS, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
FILES = [
    "uber/cadence/sharddistributor/v1/service.proto",
    "uber/cadence/sharddistributor/v1/executor.proto",
]

# google.rpc.Status, declared here: Debian has no googleapis-common-protos for Python.
STATUS_PROTO = """syntax = "proto3";
package google.rpc;
import "google/protobuf/any.proto";
message Status {
  int32 code = 1;
  string message = 2;
  repeated google.protobuf.Any details = 3;
}
"""


def generate():
    # protoc.main directly: `python -m grpc_tools.protoc` adds an -I, which
    # --descriptor_set_in refuses.
    args = ["protoc", "--descriptor_set_in=" + IMAGE, "--python_out=" + WORK,
            "--grpc_python_out=" + WORK] + FILES
    if protoc.main(args) != 0:
        sys.exit("protoc failed on the upstream image")
    os.makedirs(os.path.join(WORK, "google", "rpc"), exist_ok=True)
    with open(os.path.join(WORK, "google", "rpc", "status.proto"), "w") as f:
        f.write(STATUS_PROTO)
    well_known = os.path.join(os.path.dirname(protoc.__file__), "_proto")
    args = ["protoc", "-I" + WORK, "-I" + well_known, "--python_out=" + WORK,
            "google/rpc/status.proto"]
    if protoc.main(args) != 0:
        sys.exit("protoc failed on google/rpc/status.proto")


generate()
sys.path.insert(0, WORK)

import grpc  # noqa: E402
from google.rpc import status_pb2  # noqa: E402
from uber.cadence.sharddistributor.v1 import (  # noqa: E402
    executor_pb2, executor_pb2_grpc, service_pb2, service_pb2_grpc)

DETAILS = {
    "NamespaceNotFoundError": service_pb2.NamespaceNotFoundError,
    "ShardNotFoundError": service_pb2.ShardNotFoundError,
    # This server's addition, not in upstream's contract: numbered as
    # ShardNotFoundError, so an upstream client can read it with that type.
    "ShardDrainedError": service_pb2.ShardNotFoundError,
}
PREFIX = "type.googleapis.com/uber.cadence.sharddistributor.v1."


def report(case, **fields):
    print(json.dumps({"case": case, **fields}, ensure_ascii=False), flush=True)


def failure(case, call):
    try:
        call()
    except grpc.RpcError as error:
        trailers = dict(error.trailing_metadata() or ())
        out = {"code": error.code().name, "details": error.details()}
        raw = trailers.get("grpc-status-details-bin")
        if raw is not None:
            status = status_pb2.Status.FromString(raw)
            out["status"] = {"code": status.code, "message": status.message}
            out["details"] = []
            for any_ in status.details:
                entry = {"type_url": any_.type_url}
                kind = any_.type_url[len(PREFIX):]
                if any_.type_url.startswith(PREFIX) and kind in DETAILS:
                    message = DETAILS[kind].FromString(any_.value)
                    entry["fields"] = {f.name: v for f, v in message.ListFields()}
                out["details"].append(entry)
        report(case, **out)
        return
    report(case, code="OK")


channel = grpc.insecure_channel(ADDRESS)
api = service_pb2_grpc.ShardDistributorAPIStub(channel)
executors = executor_pb2_grpc.ShardDistributorExecutorAPIStub(channel)

owner = service_pb2.GetShardOwnerRequest
failure("unknown namespace", lambda: api.GetShardOwner(owner(namespace="nope", shard_key="1"), timeout=10))
failure("unknown shard", lambda: api.GetShardOwner(owner(namespace="fixed", shard_key="4"), timeout=10))
failure("drained shard", lambda: api.GetShardOwner(owner(namespace="fixed", shard_key="2"), timeout=10))


def beat(executor_id, status=executor_pb2.EXECUTOR_STATUS_ACTIVE, metadata=None, reports=None):
    request = executor_pb2.HeartbeatRequest(
        namespace="fixed", executor_id=executor_id, status=status, metadata=metadata or {})
    for key, shard_status in (reports or {}).items():
        request.shard_status_reports[key].status = shard_status
        request.shard_status_reports[key].shard_load = 1.0
    return lambda: executors.Heartbeat(request, timeout=10)


# Open enums: an executor status and a shard status upstream's contract does not name.
failure("unknown executor status", beat("py-newer", status=7, reports={"0": 9}))
failure("INVALID executor status", beat("py-unset", status=executor_pb2.EXECUTOR_STATUS_INVALID))
# Metadata keys are limited to 128 UTF-8 bytes.
failure("64×é key (128 bytes)", beat("py-keys", metadata={"é" * 64: "v"}))
failure("65×é key (130 bytes)", beat("py-keys", metadata={"é" * 65: "v"}))
failure("40×😀 key (160 bytes)", beat("py-keys", metadata={"😀" * 40: "v"}))
channel.close()
