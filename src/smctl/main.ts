// deno-lint-ignore-file no-console -- a command-line program talks to people
/**
 * `smctl`, the operator's command line. Its commands arrive with the smctl
 * issue; until then it says so and points at the gRPC API.
 *
 * @module
 */

const MESSAGE = `smctl is not implemented yet.

Until it is, the service's gRPC API (proto/uber/cadence/sharddistributor/v1/service.proto)
answers every operator question: ListNamespaces, GetNamespaceState, GetShardOwner,
InspectShard, DrainShards, UndrainShards, GetDrainedShards and ForceResetNamespace.`;

if (import.meta.main) {
  console.error(MESSAGE);
  Deno.exit(Deno.args.includes("--help") ? 0 : 64);
}
