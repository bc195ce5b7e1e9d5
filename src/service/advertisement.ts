/**
 * Where this instance can be reached: its stable name and its gRPC and HTTP
 * addresses, known once both listeners are bound. Leader claims carry it, so
 * `ListLeaders` (answered by any instance) can say where a leader is.
 *
 * @module
 */
import { type Clock, systemClock, timeoutSignal } from "../core/clock.ts";
import type { AdvertisedInstance } from "../core/types.ts";

/** Holds the advertised addresses; a term may wait briefly for them before claiming. */
export class Advertisement {
  #info: AdvertisedInstance | undefined;
  #resolve!: () => void;
  #ready = new Promise<void>((resolve) => this.#resolve = resolve);
  readonly #clock: Clock;

  /** Addresses not known yet; `clock` times {@linkcode Advertisement.waitFor}. @default {systemClock} */
  constructor(clock: Clock = systemClock) {
    this.#clock = clock;
  }

  /** Records the addresses (once the listeners are bound). */
  set(info: AdvertisedInstance): void {
    this.#info = info;
    this.#resolve();
  }

  /** The addresses, once known. */
  get(): AdvertisedInstance | undefined {
    return this.#info;
  }

  /** Resolves once the addresses are known, or after `ms`. */
  async waitFor(ms: number): Promise<void> {
    if (this.#info) return;
    const late = timeoutSignal(ms, this.#clock);
    const timedOut = new Promise<void>((resolve) =>
      late.signal.addEventListener("abort", () => resolve(), { once: true })
    );
    await Promise.race([this.#ready, timedOut]);
    late.clear();
  }
}

/**
 * The address to advertise for a listener bound to `bound`: a wildcard host
 * (`0.0.0.0`, `::`) is replaced by `hostName`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { advertisedAddress } from "./advertisement.ts";
 *
 * assert.equal(advertisedAddress("0.0.0.0:7943", "box"), "box:7943");
 * assert.equal(advertisedAddress("127.0.0.1:7943", "box"), "127.0.0.1:7943");
 * ```
 */
export function advertisedAddress(bound: string, hostName: string): string {
  const colon = bound.lastIndexOf(":");
  const host = bound.slice(0, colon).replace(/^\[|\]$/g, "");
  const port = bound.slice(colon + 1);
  return host === "0.0.0.0" || host === "::" || host === "" ? `${hostName}:${port}` : bound;
}
