/**
 * Waiting for namespace history in integration tests. A leader records an
 * event after the change it describes (the write to the store is its own
 * call), so a test that saw the change must wait for the event, not read once.
 */
import type { HistoryEvent, HistoryEventType } from "../../src/core/history_event.ts";
import type { HistoryLog } from "../../src/service/history_log.ts";
import { eventually } from "./executors.ts";

/**
 * Resolves with the namespace's events of `type` once there is at least one;
 * fails after `timeoutMs` naming the types recorded so far.
 */
export async function historyOf(
  history: HistoryLog,
  namespace: string,
  type: HistoryEventType,
  timeoutMs = 10_000,
): Promise<HistoryEvent[]> {
  let events: HistoryEvent[] = [];
  await eventually(
    async () => (events = await history.read(namespace)).some((e) => e.type === type),
    timeoutMs,
    () => `a ${type} event in ${namespace}'s history (has: ${events.map((e) => e.type)})`,
  );
  return events.filter((e) => e.type === type);
}
