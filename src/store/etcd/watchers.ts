/**
 * Starting and stopping etcd3 watchers without waiting on etcd forever.
 *
 * etcd3's `WatchBuilder.create()` resolves when etcd confirms the watch and
 * rejects only on a watch error: while etcd is unreachable it waits until
 * etcd is back, however long that is, and the watcher it made keeps
 * reconnecting. `Watcher.cancel()` likewise waits for etcd to confirm. A
 * leader that won its election just as etcd went away would then never
 * finish its campaign, and an instance stopping meanwhile would never stop.
 * These helpers give up on a signal or a deadline instead, and always cancel
 * the watcher they gave up on.
 *
 * @module
 */
import type { WatchBuilder, Watcher } from "etcd3";
import { systemClock, timeoutSignal } from "../../core/clock.ts";
import { StoreUnavailableError } from "../../core/errors.ts";
import { untilAborted } from "../../streams/until_aborted.ts";
import { errorText } from "./txn.ts";

/** Watchers etcd cancelled itself (etcd3 emitted `error` and forgot them). */
const cancelledByEtcd = new WeakSet<Watcher>();

/**
 * Makes the watcher `builder` describes, remembering whether etcd cancels it
 * (history compacted past its start, "no leader", a refused request): etcd3
 * then emits `error` and forgets it, and {@linkcode cancelWatcher} must not
 * ask etcd to cancel it again (etcd would confirm a watch etcd3 no longer
 * knows). Every watcher of the store is made here.
 */
export function openWatcher(builder: WatchBuilder): Watcher {
  const watcher = builder.watcher();
  watcher.on("error", () => cancelledByEtcd.add(watcher));
  return watcher;
}

/** Longest wait for etcd to confirm that a watcher is cancelled, ms. */
export const WATCH_CANCEL_MS = 2_000;

/**
 * Cancels `watcher`, waiting for etcd's confirmation at most `ms`; never
 * rejects. A watcher etcd already cancelled is left alone. Unconfirmed, the watcher is still detached from etcd3's stream:
 * etcd3 forgets it on its next reconnection.
 */
export async function cancelWatcher(
  watcher: Watcher | undefined,
  ms: number = WATCH_CANCEL_MS,
): Promise<void> {
  if (watcher === undefined || cancelledByEtcd.has(watcher)) return;
  // etcd3 can still emit an error on a watcher being cancelled (its stream ends, or etcd cancels
  // the watch: "no leader"); an EventEmitter error with no listener would end the process.
  watcher.on("error", () => {});
  const timeout = timeoutSignal(ms, systemClock);
  await untilAborted(watcher.cancel(), timeout.signal).catch(() => {});
  timeout.clear();
}

/**
 * Starts the watch `builder` describes and resolves once etcd confirmed it;
 * rejects with a `StoreUnavailableError` on a watch error, or with the
 * signal's reason once `signal` aborts. Either way the watcher is cancelled.
 */
export async function createWatcher(builder: WatchBuilder, signal: AbortSignal): Promise<Watcher> {
  signal.throwIfAborted();
  const watcher = openWatcher(builder);
  let onAbort = () => {};
  try {
    await new Promise<void>((resolve, reject) => {
      onAbort = () => reject(signal.reason);
      watcher.once("connected", () => resolve());
      watcher.once("error", (error: Error) => reject(new StoreUnavailableError(errorText(error))));
      signal.addEventListener("abort", onAbort, { once: true });
    });
    return watcher;
  } catch (error) {
    void cancelWatcher(watcher);
    throw error;
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
