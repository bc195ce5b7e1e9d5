/**
 * The producer: sends each entity's events, in order, to the node that owns
 * the entity, found with the spectator. Entities are sent concurrently, so
 * their events interleave; within an entity, an event is sent only after the
 * previous one was accepted.
 *
 * @module
 */
import type { Spectator } from "../../packages/sdk/mod.ts";
import { sleep } from "../_shared/cli.ts";
import { type EntityEvent, eventFor } from "./events.ts";

/** Options of {@linkcode produce}. */
export interface ProduceOptions {
  /** Finds owners; watches the ephemeral namespace of the entities. */
  readonly spectator: Spectator;
  /** Entity ids. */
  readonly entities: readonly string[];
  /** Events per entity. */
  readonly events: number;
  /** Longest random pause before each event, ms. @default {20} */
  readonly maxDelayMs?: number;
  /** Stops sending. */
  readonly signal?: AbortSignal;
  /** Called after each accepted event with the owner's address. */
  readonly onSent?: (event: EntityEvent, address: string) => void;
}

/**
 * Sends `events` events for every entity; resolves with entity → events sent.
 *
 * @example
 * ```ts ignore
 * const sent = await produce({ spectator, entities: ["order-1", "order-2"], events: 10 });
 * ```
 */
export async function produce(options: ProduceOptions): Promise<Map<string, number>> {
  const { entities, events, maxDelayMs = 20, signal } = options;
  const sent = new Map<string, number>();
  await Promise.all(entities.map(async (entity) => {
    for (let seq = 0; seq < events && !signal?.aborted; seq++) {
      await sleep(Math.random() * maxDelayMs, signal);
      const event = eventFor(entity, seq, events);
      const address = await send(options, event);
      sent.set(entity, seq + 1);
      options.onSent?.(event, address);
    }
  }));
  return sent;
}

/** Posts `event` to its entity's owner, asking again after a refusal (421) or a network error. */
async function send(options: ProduceOptions, event: EntityEvent): Promise<string> {
  const { spectator, signal } = options;
  let last: unknown;
  for (let attempt = 0; attempt < 50; attempt++) {
    if (attempt > 0) await sleep(200, signal);
    signal?.throwIfAborted();
    const address = await spectator.address(event.entity, signal ? { signal } : {});
    if (address === undefined) {
      last = new Error(`No owner for ${event.entity}`);
      continue;
    }
    try {
      const url = `http://${address}/entities/${encodeURIComponent(event.entity)}/events`;
      const response = await fetch(url, {
        method: "POST",
        body: JSON.stringify(event),
        headers: { "content-type": "application/json" },
        ...(signal ? { signal } : {}),
      });
      const text = await response.text();
      if (response.status === 202) return address;
      last = new Error(`${address} answered ${response.status}: ${text}`);
    } catch (error) {
      if (signal?.aborted) throw error;
      last = error;
    }
  }
  throw new Error(`Could not deliver ${event.entity} #${event.seq}`, { cause: last });
}
