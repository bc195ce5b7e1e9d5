/**
 * Authorization of the gRPC API: roles, the method → role table, identities
 * from bearer tokens and client certificates, and secrets read from the
 * environment or files. Pure apart from {@linkcode Authorizer.create}.
 *
 * @module
 */
export * from "./authorizer.ts";
export * from "./roles.ts";
export * from "./secrets.ts";
export * from "./namespace_scope.ts";
