/**
 * The spectator's connection events, logs and metrics, fed from the watch
 * loop: a stream delivered its first update, or a stream was lost.
 *
 * @module
 */
import { EventHub, type SubscribeOptions } from "../common/event_hub.ts";
import { failureCode } from "../common/failure_code.ts";
import { resolveLogger } from "../common/logger.ts";
import type { ObservabilityOptions } from "../common/observability_options.ts";
import { OutageLog } from "../common/outage_log.ts";
import {
  type CounterLike,
  type ObservableGaugeLike,
  type ObservableResultLike,
  resolveMeter,
} from "../common/telemetry.ts";
import type { SpectatorClock } from "./clock.ts";
import type { SpectatorEvent } from "./types.ts";

/** Who is observed, and how. */
export interface SpectatorObserverOptions extends ObservabilityOptions {
  readonly namespace: string;
  readonly clock: SpectatorClock;
  /** `staleness().ageMs`. */
  readonly ageMs: () => number;
}

/** Metric names, units and what they count; documented in docs/sdk_spectator.md. */
export const SPECTATOR_METRICS = {
  staleness: [
    "shard_manager.sdk.spectator.staleness",
    "s",
    "How old the spectator's answers may be: 0 while connected",
  ],
  reconnects: [
    "shard_manager.sdk.spectator.reconnects",
    "{reconnect}",
    "Watch streams lost or failed, each followed by a reconnect attempt",
  ],
} as const;

/** Events each `events()` iterator buffers before dropping the oldest. */
const EVENT_BUFFER = 256;

/** Events, logs and metrics of one spectator. */
export class SpectatorObserver {
  readonly #o: SpectatorObserverOptions;
  readonly #hub = new EventHub<SpectatorEvent>(
    EVENT_BUFFER,
    (count) => ({ type: "dropped", count }),
  );
  readonly #outage: OutageLog;
  readonly #attributes: { readonly namespace: string };
  readonly #reconnects: CounterLike | undefined;
  readonly #staleness: ObservableGaugeLike | undefined;
  #connectedTo: string | undefined;
  #attempts = 0;
  readonly #observe = (result: ObservableResultLike): void => {
    const age = this.#o.ageMs();
    if (Number.isFinite(age)) result.observe(age / 1000, this.#attributes);
  };

  /** Checks the options (throwing `InvalidOptionsError`) and resolves the meter. */
  constructor(options: SpectatorObserverOptions) {
    this.#o = options;
    this.#attributes = { namespace: options.namespace };
    this.#outage = new OutageLog({
      logger: resolveLogger(options.logger),
      clock: options.clock,
      subject: `Spectator watch streams (namespace ${JSON.stringify(options.namespace)})`,
      context: { namespace: options.namespace },
    });
    const meter = resolveMeter(options.meter);
    if (meter !== undefined) {
      const [name, unit, description] = SPECTATOR_METRICS.reconnects;
      this.#reconnects = meter.createCounter(name, { unit, description });
      const [gauge, gaugeUnit, about] = SPECTATOR_METRICS.staleness;
      this.#staleness = meter.createObservableGauge(gauge, { unit: gaugeUnit, description: about });
      this.#staleness.addCallback(this.#observe);
    }
  }

  /** See `Spectator.events()`. */
  events(options: SubscribeOptions = {}): AsyncIterableIterator<SpectatorEvent> {
    return this.#hub.subscribe(options);
  }

  /** A stream to `address` delivered its first update. */
  connected(address: string): void {
    this.#connectedTo = address;
    this.#hub.emit({ type: "connected", address, attempts: this.#attempts });
    this.#attempts = 0;
    this.#outage.succeeded(address);
  }

  /** A stream to `address` failed, ended or timed out; the next attempt is in `delayMs`. */
  lost(address: string, error: Error, delayMs: number): void {
    const code = failureCode(error);
    if (this.#connectedTo !== undefined) {
      this.#connectedTo = undefined;
      this.#hub.emit({ type: "disconnected", address, error, code });
    }
    this.#attempts++;
    this.#hub.emit({
      type: "reconnecting",
      address,
      error,
      code,
      attempt: this.#attempts,
      delayMs,
    });
    this.#reconnects?.add(1, { ...this.#attributes, code });
    this.#outage.failed(error, address);
  }

  /** The spectator closed: ends the iterators and stops reporting the gauge. */
  closed(): void {
    this.#staleness?.removeCallback(this.#observe);
    this.#hub.close();
  }
}
