/**
 * The embedded store's format record: `<dataDir>/format.json`,
 * `{"version":N}` (store/store_format.ts), replaced atomically (written
 * beside, then renamed). One process holds the directory at a time, so no
 * compare is needed.
 *
 * @module
 */
import { join } from "node:path";
import {
  checkRaiseTarget,
  encodeStoreFormat,
  NEWEST_STORE_FORMAT,
  OLDEST_STORE_FORMAT,
  parseStoreFormat,
  type StoreFormat,
  type StoreFormatError,
} from "../store_format.ts";

const FILE = "format.json";

/** The format record of one embedded data directory. */
export class EmbeddedFormat implements StoreFormat {
  readonly #path: string;
  readonly #isEmpty: () => boolean;

  /** For `dataDir`; `isEmpty` tells whether the store holds nothing yet. */
  constructor(dataDir: string, isEmpty: () => boolean) {
    this.#path = join(dataDir, FILE);
    this.#isEmpty = isEmpty;
  }

  /** Reads the format, writing the record first when there is none. */
  async open(): Promise<number> {
    const text = await this.#read();
    if (text !== undefined) return parseStoreFormat(text, this.#path);
    const version = this.#isEmpty() ? NEWEST_STORE_FORMAT : OLDEST_STORE_FORMAT;
    await this.#write(version);
    return version;
  }

  /** Raises the format to `version` (never lowers it); returns the format before. */
  async raise(version: number): Promise<number> {
    checkRaiseTarget(version);
    const before = parseStoreFormat(await this.#read(), this.#path);
    if (before < version) await this.#write(version);
    return before;
  }

  /** The directory is locked while this process runs: nothing else changes the record. */
  watchUnreadable(signal: AbortSignal): Promise<StoreFormatError | undefined> {
    return new Promise((resolve) => {
      if (signal.aborted) resolve(undefined);
      else signal.addEventListener("abort", () => resolve(undefined), { once: true });
    });
  }

  async #read(): Promise<string | undefined> {
    try {
      return await Deno.readTextFile(this.#path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    }
  }

  async #write(version: number): Promise<void> {
    const temp = `${this.#path}.tmp`;
    await Deno.writeTextFile(temp, encodeStoreFormat(version));
    await Deno.rename(temp, this.#path);
  }
}
