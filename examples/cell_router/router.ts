/**
 * The thin router: maps a request's customer id (the partition key, a tenant
 * of the `mode: cells` namespace) to the cell that holds it, from the
 * spectator's in-memory map, and forwards the request there. Only a
 * customer never seen before costs a call to Shard Manager (GetShardOwner,
 * which places it once on the least-loaded cell); known customers are routed
 * from memory, so they keep being routed while Shard Manager and its store
 * are down, and the router says how stale its map may be.
 *
 * @module
 */
import {
  createSpectator,
  ShardOwnerLookupError,
  type Spectator,
  SpectatorNotReadyError,
} from "../../packages/sdk/mod.ts";
import { customerOf } from "./tenant.ts";

/** Options of {@linkcode startRouter}. */
export interface RouterOptions {
  /** Shard Manager addresses. */
  readonly addresses: readonly string[];
  /** The cells namespace (ephemeral, `mode: cells`). @default {"cells"} */
  readonly namespace?: string;
  /** Where to listen. @default {"127.0.0.1"} */
  readonly hostname?: string;
  /** Port to listen on (0: any free one). @default {8000} */
  readonly port?: number;
}

/** A running router. */
export interface Router extends AsyncDisposable {
  /** Where it listens, `host:port`. */
  readonly address: string;
  /** Its spectator. */
  readonly spectator: Spectator;
  /** Stops listening and closes the spectator. */
  close(): Promise<void>;
}

/**
 * Starts a router. `GET /status` answers the routing map and its staleness;
 * every other request with a customer id (`x-customer-id` header or
 * `/customers/<id>/...`) is forwarded to its cell, with the response headers
 * `x-routed-to` (the cell) and `x-routing-stale-ms` (0 while the map is
 * current; how long Shard Manager has been unreachable otherwise). A cell
 * that answers 421 (not its customer, yet or any more) is asked again after
 * a fresh lookup, up to 5 times.
 *
 * @example
 * ```ts ignore
 * await using router = startRouter({ addresses: ["127.0.0.1:7943"], port: 8000 });
 * const response = await fetch(`http://${router.address}/customers/42/orders`);
 * console.log(response.headers.get("x-routed-to"));
 * ```
 */
export function startRouter(options: RouterOptions): Router {
  const spectator = createSpectator({
    addresses: options.addresses,
    namespace: options.namespace ?? "cells",
    namespaceType: "ephemeral",
  });
  const server = Deno.serve({
    hostname: options.hostname ?? "127.0.0.1",
    port: options.port ?? 8000,
    onListen() {},
  }, (request) => route(request, spectator));
  const close = async () => {
    await server.shutdown();
    await spectator.close();
  };
  return {
    address: `${server.addr.hostname}:${server.addr.port}`,
    spectator,
    close,
    [Symbol.asyncDispose]: close,
  };
}

async function route(request: Request, spectator: Spectator) {
  if (new URL(request.url).pathname === "/status") return status(spectator);
  const customer = customerOf(request);
  if (customer === undefined) {
    return new Response("no customer id: send x-customer-id or /customers/<id>/...", {
      status: 400,
    });
  }
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  const body = hasBody ? await request.arrayBuffer() : undefined;
  // A cell answers 421 when the map is ahead of it (it has not started the
  // customer yet) or behind it (it was just moved away): look up again.
  for (let attempt = 1;; attempt++) {
    const response = await forward(request, body, spectator, customer);
    if (response.status !== 421 || attempt === MISDIRECTED_ATTEMPTS) return response;
    await response.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
  }
}

const MISDIRECTED_ATTEMPTS = 5;

async function forward(
  request: Request,
  body: ArrayBuffer | undefined,
  spectator: Spectator,
  customer: string,
): Promise<Response> {
  const headers = { "x-routing-stale-ms": String(spectator.staleness().ageMs) };
  let owner;
  try {
    // From memory for a known customer; a new one is placed by Shard Manager.
    owner = spectator.ownerOf(customer) ??
      await spectator.owner(customer, { signal: AbortSignal.timeout(5_000) });
  } catch (error) {
    if (error instanceof SpectatorNotReadyError) {
      return new Response("the routing map is not loaded yet", { status: 503, headers });
    }
    if (!(error instanceof ShardOwnerLookupError || error instanceof DOMException)) throw error;
    return new Response(`no cell for new customer ${customer}: ${error.message}`, {
      status: 503,
      headers,
    });
  }
  const cell = owner?.metadata.address;
  if (!owner || !cell) {
    return new Response(`no cell serves customer ${customer}`, { status: 503, headers });
  }
  const url = new URL(request.url);
  const forwarded = new Headers(request.headers);
  forwarded.set("x-customer-id", customer);
  try {
    const response = await fetch(`http://${cell}${url.pathname}${url.search}`, {
      method: request.method,
      headers: forwarded,
      redirect: "manual",
      ...(body ? { body } : {}),
    });
    const out = new Headers(response.headers);
    out.set("x-routed-to", owner.executorId);
    for (const [k, v] of Object.entries(headers)) out.set(k, v);
    return new Response(response.body, { status: response.status, headers: out });
  } catch (error) {
    return new Response(`cell ${owner.executorId} at ${cell} failed: ${error}`, {
      status: 502,
      headers,
    });
  }
}

function status(spectator: Spectator): Response {
  const { connected, ageMs, lastUpdateMs, lastError } = spectator.staleness();
  const cells = [...spectator.placement?.executors.values() ?? []].map((e) => ({
    cell: e.executorId,
    address: e.metadata.address,
    customers: [...e.shards].sort(),
  }));
  return Response.json({
    connected,
    staleMs: Number.isFinite(ageMs) ? ageMs : null,
    lastUpdateMs,
    lastError: lastError === undefined ? null : String(lastError),
    customers: spectator.placement?.owners.size ?? 0,
    cells,
  });
}
