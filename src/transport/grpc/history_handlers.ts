/**
 * The history RPC (`ListNamespaceEvents`): a namespace's event log, read from
 * the store. The log lives only there, so while the store is unreachable the
 * call says so at once, and a read the store does not answer in time fails
 * instead of hanging. A deleted namespace's history stays readable until its
 * retention ends.
 *
 * @module
 */
import { sleep } from "../../core/clock.ts";
import { NamespaceNotFoundError, StoreUnavailableError } from "../../core/errors.ts";
import { validateNamespace } from "../../limits/validate_request.ts";
import type { Service } from "../../service/mod.ts";
import type { ShardDistributorAPIHandlers } from "../../wire/proto.ts";
import { toHistoryEvent } from "./convert.ts";
import { type HandlerContext, unary } from "./unary_handler.ts";

/** How long a history read may wait for the store, ms. */
export const HISTORY_READ_BOUND_MS = 5_000;

/** `work`, or a `StoreUnavailableError` saying `late` when it takes longer than `ms`. */
async function within<T>(ms: number, work: Promise<T>, late: string): Promise<T> {
  const timeUp = new AbortController();
  const timer = sleep(ms, timeUp.signal).then(() => {
    throw new StoreUnavailableError(late);
  });
  try {
    return await Promise.race([work, timer]);
  } finally {
    timeUp.abort();
    await timer.catch(() => {});
  }
}

/** `ListNamespaceEvents` of `ShardDistributorAPI`. */
export function historyHandlers(
  service: Service,
  context: HandlerContext,
): Pick<ShardDistributorAPIHandlers, "ListNamespaceEvents"> {
  return {
    ListNamespaceEvents: unary(context, "ListNamespaceEvents", async (req) => {
      const namespace = validateNamespace(req.namespace);
      const since = req.since
        ? Number(req.since.seconds ?? 0) * 1000 + Math.floor((req.since.nanos ?? 0) / 1e6)
        : undefined;
      const query = {
        ...(since === undefined ? {} : { sinceMs: since }),
        ...(req.afterId ? { afterId: req.afterId } : {}),
        ...(req.limit && req.limit > 0 ? { limit: req.limit } : {}),
      };
      // The history lives only in the store: say so at once while it is unreachable.
      const lost = service.routing.storeLostSince();
      if (lost) {
        throw new StoreUnavailableError(
          `Store unreachable since ${new Date(lost.wallMs).toISOString()}: the history is kept ` +
            `in the store and can be read once it answers again`,
        );
      }
      // A deleted namespace's history stays readable until its retention ends.
      const events = await within(
        HISTORY_READ_BOUND_MS,
        service.namespaces.has(namespace)
          ? service.history.read(namespace, query)
          : service.history.readRemoved(namespace, query),
        "The store did not answer the history read within 5 s; try again",
      );
      if (events === undefined) throw new NamespaceNotFoundError(namespace);
      return { namespace, events: events.map(toHistoryEvent) };
    }),
  };
}
