/**
 * The mass-loss brake as smctl shows it (`namespace brake status`, and a line
 * of `namespace describe`): a model of the `GetBrake` answer and its line.
 *
 * @module
 */
import type { GetBrakeResponse__Output } from "../wire/proto.ts";
import { ago, isoTime, shortTime, timestampMs } from "./time.ts";
import { type Palette, palette as makePalette } from "./colour.ts";

const PLAIN = makePalette(false);

/** The brake as smctl prints it in JSON. */
export interface BrakeModel {
  /** `engaged`, `lifted`, `released`, or `never` (it never engaged). */
  readonly state: "engaged" | "lifted" | "released" | "never";
  /** When it engaged (ISO 8601). */
  readonly since: string | null;
  /** Why, in words. */
  readonly reason: string;
  /** Executors serving before the loss. */
  readonly executorsBefore: number;
  /** How many were lost, and (up to 100) which. */
  readonly lostCount: number;
  readonly lostExecutorIds: readonly string[];
  /** When it was lifted or released (ISO 8601). */
  readonly endedAt: string | null;
  /** Who lifted it. */
  readonly liftedBy: string | null;
}

/**
 * The model of a `GetBrake` answer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { brakeModel } from "./brake_format.ts";
 *
 * const never = brakeModel({ namespace: "ns", state: "" } as Parameters<typeof brakeModel>[0]);
 * assert.equal(never.state, "never");
 * ```
 */
export function brakeModel(wire: GetBrakeResponse__Output): BrakeModel {
  const state = wire.state === "engaged" || wire.state === "lifted" || wire.state === "released"
    ? wire.state
    : "never";
  return {
    state,
    since: isoTime(timestampMs(wire.since)),
    reason: wire.reason ?? "",
    executorsBefore: wire.executorsBefore ?? 0,
    lostCount: wire.lostCount ?? 0,
    lostExecutorIds: wire.lostExecutorIds ?? [],
    endedAt: isoTime(timestampMs(wire.endedAt)),
    liftedBy: wire.liftedBy || null,
  };
}

/**
 * One line about the brake at wall-clock `now`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { brakeLine } from "./brake_format.ts";
 *
 * const line = brakeLine({
 *   state: "engaged", since: "2026-01-01T00:00:00.000Z", reason: "6 of 10 lost",
 *   executorsBefore: 10, lostCount: 6, lostExecutorIds: [], endedAt: null, liftedBy: null,
 * }, Date.parse("2026-01-01T00:01:00Z"));
 * assert.equal(line, "ENGAGED since 2026-01-01 00:00:00Z (1m ago): 6 of 10 lost");
 * ```
 */
export function brakeLine(b: BrakeModel, now: number, paint: Palette = PLAIN): string {
  const at = (iso: string | null) => {
    const ms = iso === null ? null : Date.parse(iso);
    return `${shortTime(ms)} (${ago(ms, now)})`;
  };
  switch (b.state) {
    case "never":
      return "released (never engaged)";
    case "engaged":
      return `${paint.red("ENGAGED")} since ${at(b.since)}: ${b.reason}`;
    case "lifted":
      return `lifted by ${b.liftedBy ?? "an operator"} at ${at(b.endedAt)} ` +
        `(engaged since ${shortTime(b.since === null ? null : Date.parse(b.since))})`;
    case "released":
      return `released at ${at(b.endedAt)}: the lost executors returned ` +
        `(engaged since ${shortTime(b.since === null ? null : Date.parse(b.since))})`;
  }
}
