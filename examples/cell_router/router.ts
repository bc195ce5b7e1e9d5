/**
 * The thin router: maps a request's customer id to a partition, the
 * partition to the cell that owns it (from the spectator's in-memory map),
 * and forwards the request there. It never calls Shard Manager on the
 * request path, so it keeps routing from its cached map while Shard Manager
 * and its store are down, and says how stale that map may be.
 *
 * @module
 */
import { createSpectator, type Spectator, SpectatorNotReadyError } from "../../src/client/mod.ts";
import { customerOf, partitionOf } from "./partition.ts";

/** Options of {@linkcode startRouter}. */
export interface RouterOptions {
  /** Shard Manager addresses. */
  readonly addresses: readonly string[];
  /** The cells' fixed namespace. @default {"cells"} */
  readonly namespace?: string;
  /** Its number of shards, the partitions customers hash to. */
  readonly partitions: number;
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
 * `x-routed-to` (the cell), `x-partition` and `x-routing-stale-ms` (0 while
 * the map is current; how long Shard Manager has been unreachable otherwise).
 * A cell that answers 421 (not its partition, yet or any more) is asked
 * again after a fresh lookup, up to 5 times.
 *
 * @example
 * ```ts ignore
 * await using router = startRouter({ addresses: ["127.0.0.1:7943"], partitions: 16, port: 8000 });
 * const response = await fetch(`http://${router.address}/customers/42/orders`);
 * console.log(response.headers.get("x-routed-to"));
 * ```
 */
export function startRouter(options: RouterOptions): Router {
  const spectator = createSpectator({
    addresses: options.addresses,
    namespace: options.namespace ?? "cells",
    namespaceType: "fixed",
  });
  const server = Deno.serve({
    hostname: options.hostname ?? "127.0.0.1",
    port: options.port ?? 8000,
    onListen() {},
  }, (request) => route(request, spectator, options.partitions));
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

async function route(request: Request, spectator: Spectator, partitions: number) {
  if (new URL(request.url).pathname === "/status") return status(spectator, partitions);
  const customer = customerOf(request);
  if (customer === undefined) {
    return new Response("no customer id: send x-customer-id or /customers/<id>/...", {
      status: 400,
    });
  }
  const partition = partitionOf(customer, partitions);
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  const body = hasBody ? await request.arrayBuffer() : undefined;
  // A cell answers 421 when the map is ahead of it (it has not started the
  // partition yet) or behind it (it just gave it away): look up again.
  for (let attempt = 1;; attempt++) {
    const response = await forward(request, body, spectator, customer, partition);
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
  partition: string,
): Promise<Response> {
  const headers = {
    "x-partition": partition,
    "x-routing-stale-ms": String(spectator.staleness().ageMs),
  };
  let owner;
  try {
    owner = spectator.ownerOf(partition);
  } catch (error) {
    if (!(error instanceof SpectatorNotReadyError)) throw error;
    return new Response("the routing map is not loaded yet", { status: 503, headers });
  }
  const cell = owner?.metadata.address;
  if (!owner || !cell) {
    return new Response(`no cell serves partition ${partition}`, { status: 503, headers });
  }
  const url = new URL(request.url);
  const forwarded = new Headers(request.headers);
  forwarded.set("x-partition", partition);
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

function status(spectator: Spectator, partitions: number): Response {
  const { connected, ageMs, lastUpdateMs, lastError } = spectator.staleness();
  const cells = [...spectator.placement?.executors.values() ?? []].map((e) => ({
    cell: e.executorId,
    address: e.metadata.address,
    partitions: [...e.shards].sort((a, b) => +a - +b),
  }));
  return Response.json({
    connected,
    staleMs: Number.isFinite(ageMs) ? ageMs : null,
    lastUpdateMs,
    lastError: lastError === undefined ? null : String(lastError),
    partitions,
    owned: spectator.placement?.owners.size ?? 0,
    cells,
  });
}
