/**
 * The store's format version: one number for everything the service
 * persists (the assignment log and its snapshots, executor records, drains,
 * definitions, history), kept in one record per store (etcd:
 * `<prefix>/format`; embedded: `<dataDir>/format.json`). See
 * docs/operations.md, "Upgrades and rollbacks", for the rule on when it is
 * raised.
 *
 * - **1**: release 0.1.0's format, and any store without the record (0.1.0
 *   did not write one).
 * - **2**: adds the records of warm handovers (prepares, kept fencing tokens)
 *   that release 0.1.0 misreads. A store at format 1 never gets them: this
 *   release turns warm handover off there until an operator raises it.
 *
 * A release reads every format from {@linkcode OLDEST_STORE_FORMAT} to its
 * {@linkcode NEWEST_STORE_FORMAT} and refuses to start on a newer one
 * ({@linkcode StoreFormatError}) rather than misread it.
 *
 * @module
 */

/** The oldest format this release reads: release 0.1.0's. */
export const OLDEST_STORE_FORMAT = 1;

/** The newest format this release reads and can raise a store to. */
export const NEWEST_STORE_FORMAT = 2;

/** The first format with warm handover records (prepares and kept fencing tokens). */
export const WARM_HANDOVER_FORMAT = 2;

/** A store's format is one this release cannot read, or its record is damaged. */
export class StoreFormatError extends Error {
  /** The format the store is at (NaN when its record cannot be read). */
  readonly stored: number;
  /** The newest format this release reads. */
  readonly newest: number;
  /** Builds the error; `where` names the record (a key or a file). */
  constructor(stored: number, where: string, options?: ErrorOptions & { detail?: string }) {
    super(
      Number.isNaN(stored)
        ? `The store's format record ${where} cannot be read (${options?.detail ?? "damaged"}); ` +
          `this release reads formats ${OLDEST_STORE_FORMAT} to ${NEWEST_STORE_FORMAT}. ` +
          `Restore the record, or point the service at another prefix`
        : `The store is at format ${stored} (${where}), newer than this release reads ` +
          `(formats ${OLDEST_STORE_FORMAT} to ${NEWEST_STORE_FORMAT}): a newer release wrote it. ` +
          `Run that release (or a later one); rolling back past a format raise is not possible ` +
          `(docs/operations.md, "Upgrades and rollbacks")`,
      options,
    );
    this.name = "StoreFormatError";
    this.stored = stored;
    this.newest = NEWEST_STORE_FORMAT;
  }
}

/**
 * Reads a stored format record (`{"version":N}`): undefined (no record) is
 * format 1, release 0.1.0's. Throws {@linkcode StoreFormatError} for a
 * damaged record or a format newer than this release reads.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseStoreFormat, StoreFormatError } from "./store_format.ts";
 *
 * assert.equal(parseStoreFormat(undefined, "store/format"), 1);
 * assert.equal(parseStoreFormat('{"version":2}', "store/format"), 2);
 * assert.throws(() => parseStoreFormat('{"version":7}', "store/format"), StoreFormatError);
 * assert.throws(() => parseStoreFormat("seven", "store/format"), StoreFormatError);
 * ```
 */
export function parseStoreFormat(text: string | undefined, where: string): number {
  if (text === undefined) return OLDEST_STORE_FORMAT;
  let version: unknown;
  try {
    version = (JSON.parse(text) as { version?: unknown } | null)?.version;
  } catch {
    version = undefined;
  }
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1) {
    throw new StoreFormatError(NaN, where, { detail: `found ${JSON.stringify(text)}` });
  }
  if (version > NEWEST_STORE_FORMAT) throw new StoreFormatError(version, where);
  return version;
}

/**
 * The text of a format record.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { encodeStoreFormat } from "./store_format.ts";
 * assert.equal(encodeStoreFormat(2), '{"version":2}');
 * ```
 */
export function encodeStoreFormat(version: number): string {
  return JSON.stringify({ version });
}

/**
 * Checks a format an operator asks to raise a store to: a whole number this
 * release knows. Throws a `RangeError` naming the value otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkRaiseTarget } from "./store_format.ts";
 * assert.equal(checkRaiseTarget(2), 2);
 * assert.throws(() => checkRaiseTarget(3), RangeError);
 * ```
 */
export function checkRaiseTarget(version: number): number {
  if (
    !Number.isInteger(version) || version < OLDEST_STORE_FORMAT || version > NEWEST_STORE_FORMAT
  ) {
    throw new RangeError(
      `Cannot raise the store format to ${version}: this release knows formats ` +
        `${OLDEST_STORE_FORMAT} to ${NEWEST_STORE_FORMAT}`,
    );
  }
  return version;
}

/** The format record of one store (a port; each store adapter implements it). */
export interface StoreFormat {
  /**
   * Reads the store's format at start. A store with no record gets one: the
   * newest format when the store is empty (nothing older wrote it), else 1
   * (release 0.1.0 wrote it). Throws {@linkcode StoreFormatError} when the
   * format is newer than this release reads.
   */
  open(): Promise<number>;
  /**
   * Raises the store's format to `version` (never lowers it); returns the
   * format before. Throws {@linkcode StoreFormatError} for a store already
   * newer than this release reads.
   */
  raise(version: number): Promise<number>;
  /**
   * After `open`: resolves with a {@linkcode StoreFormatError} once the
   * record changes to a format this release cannot read (a newer release
   * raised it while this instance runs), so that the instance stops instead
   * of misreading; resolves undefined when `signal` aborts first.
   */
  watchUnreadable(signal: AbortSignal): Promise<StoreFormatError | undefined>;
}
