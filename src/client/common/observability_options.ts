/**
 * The logging and telemetry options every SDK entry point takes.
 *
 * @module
 */
import type { Logger } from "./logger.ts";
import type { MeterLike, TracerLike } from "./telemetry.ts";

/** Where an SDK reports what it does: logs, metrics, traces. */
export interface ObservabilityOptions {
  /**
   * Where log lines go: any object with `debug`, `info`, `warn` and `error`
   * (`console` fits); `false` for none. An outage logs one warning when it
   * starts and one info line when it ends; errors that retrying cannot fix
   * log at error.
   * @default {the console on standard error, one line per event, without debug lines}
   */
  readonly logger?: Logger | false;
  /**
   * The OpenTelemetry meter that receives the SDK's metrics; `false` for
   * none.
   * @default {the global meter provider's meter "@shard-manager/sdk" when the application registered one with @opentelemetry/api, else none}
   */
  readonly meter?: MeterLike | false;
  /**
   * The OpenTelemetry tracer that receives the SDK's spans; `false` for none.
   * @default {the global tracer provider's tracer "@shard-manager/sdk" when the application registered one, else none}
   */
  readonly tracer?: TracerLike | false;
}
