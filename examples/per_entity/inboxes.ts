/**
 * A node's inboxes: one in-order queue (a `ReadableStream`) per entity it
 * owns. The HTTP handler delivers into them; each entity's processor reads
 * its own, one event at a time.
 *
 * @module
 */
import type { EntityEvent } from "./events.ts";

/**
 * The inboxes of one node.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Inboxes } from "./inboxes.ts";
 * const inboxes = new Inboxes();
 * const reader = inboxes.open("order-1").getReader();
 * await inboxes.deliver({ entity: "order-1", seq: 0, type: "created", last: false }, 0);
 * assert.equal((await reader.read()).value?.seq, 0);
 * ```
 */
export class Inboxes {
  readonly #open = new Map<string, ReadableStreamDefaultController<EntityEvent>>();
  readonly #waiting = new Map<string, PromiseWithResolvers<void>>();

  /** Opens the inbox of `entity` (its shard was assigned here) and returns its stream. */
  open(entity: string): ReadableStream<EntityEvent> {
    const stream = new ReadableStream<EntityEvent>({
      start: (controller) => void this.#open.set(entity, controller),
    });
    this.#waiting.get(entity)?.resolve();
    this.#waiting.delete(entity);
    return stream;
  }

  /** Closes the inbox of `entity`: later events wait for it to be opened again. */
  close(entity: string): void {
    const controller = this.#open.get(entity);
    this.#open.delete(entity);
    try {
      controller?.close();
    } catch { /* already cancelled by its reader */ }
  }

  /**
   * Appends `event` to its entity's inbox, waiting up to `timeoutMs` for the
   * inbox to open (the shard is assigned at the node's next heartbeat).
   * Resolves false if it did not: this node does not own the entity.
   */
  async deliver(event: EntityEvent, timeoutMs: number): Promise<boolean> {
    if (!this.#open.has(event.entity) && timeoutMs > 0) {
      let waiter = this.#waiting.get(event.entity);
      if (!waiter) this.#waiting.set(event.entity, waiter = Promise.withResolvers<void>());
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        waiter.promise,
        new Promise<void>((resolve) => timer = setTimeout(resolve, timeoutMs)),
      ]);
      clearTimeout(timer);
    }
    const controller = this.#open.get(event.entity);
    if (!controller) return false;
    controller.enqueue(event);
    return true;
  }
}
