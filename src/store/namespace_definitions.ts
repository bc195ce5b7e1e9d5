/**
 * The part of the store port that keeps namespace definitions: namespaces as
 * data, created, changed and deleted at run time, that every instance follows.
 * A definition is the YAML form of one `shardDistribution.namespaces` entry
 * (plain data) with where it comes from.
 *
 * @module
 */

/** Where a definition comes from: the configuration file (read-only through the API) or the API. */
export type DefinitionSource = "file" | "api";

/** A definition as written. */
export interface DefinitionValue {
  /** Namespace name (the spec's `name`). */
  readonly name: string;
  /** Where it comes from. */
  readonly source: DefinitionSource;
  /** The YAML form of one namespace entry, as plain data. */
  readonly spec: Readonly<Record<string, unknown>>;
}

/** A definition as stored. */
export interface StoredDefinition extends DefinitionValue {
  /** Store revision of its last write; the compare of a conditional update. */
  readonly revision: number;
}

/** Every definition at one revision. */
export interface DefinitionsSnapshot {
  /** Store revision read at. */
  readonly revision: number;
  /** The definitions, by name. */
  readonly definitions: ReadonlyMap<string, StoredDefinition>;
}

/** One change: a definition written (`definition` set) or deleted. */
export interface DefinitionChange {
  /** Namespace name. */
  readonly name: string;
  /** The new definition; absent when deleted. */
  readonly definition?: StoredDefinition;
}

/** Changes of one store revision. */
export interface DefinitionBatch {
  /** Store revision. */
  readonly revision: number;
  /** What changed; a `resync` batch (`resync: true`) means: reload a snapshot. */
  readonly changes: readonly DefinitionChange[];
  /** History was lost: reload with {@linkcode NamespaceDefinitions.loadDefinitions}. */
  readonly resync?: boolean;
}

/** Namespace definitions in the store. */
export interface NamespaceDefinitions {
  /** Reads every definition at one revision. */
  loadDefinitions(): Promise<DefinitionsSnapshot>;
  /** Streams changes after `afterRevision` until `signal` aborts. */
  watchDefinitions(afterRevision: number, signal: AbortSignal): ReadableStream<DefinitionBatch>;
  /**
   * Writes a definition. `expected`: `0` requires that none exists (create),
   * a revision requires that the stored one still has it, `undefined` writes
   * unconditionally. Resolves to the new revision, or `undefined` when the
   * condition failed (nothing written).
   */
  putDefinition(value: DefinitionValue, expected?: number): Promise<number | undefined>;
  /** Deletes a definition (only at revision `expected` when given); true when one was deleted. */
  deleteDefinition(name: string, expected?: number): Promise<boolean>;
}
