/**
 * The soak's own load, on top of the chaos cluster's executors and
 * spectator: every 5 s a read of each namespace's state, and every 30 s a
 * namespace created and, 15 s later, deleted again. Calls go round the
 * instances over long-lived connections, as clients keep them. A call that
 * fails during a fault is counted, not fatal; a delete is retried until it
 * succeeds, so that every created namespace is gone again at the end.
 *
 * @module
 */
import { call, connect } from "../support/grpc_clients.ts";
import type { ChaosCluster } from "./cluster.ts";

/** What the load did. */
export interface SoakLoadStats {
  readonly reads: number;
  /** Namespaces created and deleted again. */
  readonly namespaceCycles: number;
  /** Calls that failed (expected during faults). */
  readonly errors: number;
}

/** A running load. */
export interface SoakLoad {
  stats(): SoakLoadStats;
  /** Stops it, deleting a namespace it created and has not deleted yet. Idempotent. */
  stop(): Promise<void>;
}

const READ_EVERY_MS = 5_000;
const CYCLE_EVERY_MS = 30_000;
const DELETE_AFTER_MS = 15_000;
const NOT_FOUND = 5;

/** Starts the load on `cluster`, reading `namespaces`. */
export function soakLoad(
  cluster: ChaosCluster,
  namespaces: readonly string[],
  onError: (message: string) => void,
): SoakLoad {
  const clients = cluster.serviceAddresses.map((address) => connect(address));
  let turn = 0;
  const api = () => clients[turn++ % clients.length]!.api;
  let reads = 0;
  let namespaceCycles = 0;
  let errors = 0;
  let stopping = false;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const end = Date.now() + ms;
      const tick = () => stopping || Date.now() >= end ? resolve() : setTimeout(tick, 100);
      tick();
    });
  /** Whether the call succeeded (or failed with one of the `fine` gRPC codes). */
  const attempt = async (method: string, request: object, fine: number[] = []) => {
    try {
      await call(api(), method, request, 5_000);
      return true;
    } catch (error) {
      if (fine.includes((error as { code?: number }).code ?? -1)) return true;
      errors++;
      return false;
    }
  };

  const reading = (async () => {
    while (!stopping) {
      for (const namespace of namespaces) {
        if (await attempt("getNamespaceState", { namespace })) reads++;
      }
      await sleep(READ_EVERY_MS);
    }
  })();

  let pending: string | undefined;
  const remove = async (namespace: string) => {
    const deadline = Date.now() + 120_000;
    // NOT_FOUND: a create that failed after all, or a delete that succeeded but timed out.
    while (!await attempt("deleteNamespace", { namespace, drainTimeoutMs: 5_000 }, [NOT_FOUND])) {
      if (Date.now() > deadline) {
        onError(`soak load: namespace ${namespace} could not be deleted for 120 s`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    pending = undefined;
    namespaceCycles++;
  };
  const cycling = (async () => {
    for (let n = 1; !stopping; n++) {
      await sleep(CYCLE_EVERY_MS - DELETE_AFTER_MS);
      if (stopping) break;
      const namespace = `soak-tmp-${n}`;
      const definitionYaml = JSON.stringify({ name: namespace, type: "fixed", shardNum: 4 });
      pending = namespace;
      // A create that times out may still have been stored: it is deleted all the same.
      if (await attempt("createNamespace", { namespace, definitionYaml })) {
        await sleep(DELETE_AFTER_MS);
      }
      await remove(namespace);
    }
  })();

  let stopped: Promise<void> | undefined;
  return {
    stats: () => ({ reads, namespaceCycles, errors }),
    stop() {
      stopped ??= (async () => {
        stopping = true;
        await Promise.all([reading, cycling]);
        if (pending !== undefined) await remove(pending);
        for (const c of clients) c.close();
      })();
      return stopped;
    },
  };
}
