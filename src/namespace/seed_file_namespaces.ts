/**
 * The configuration file's namespaces into the store: at start, each one
 * missing is created (source `file`) and each one changed in the file is
 * applied with the same checks as an update; on `SIGHUP` (`reload: true`) a
 * file namespace no longer in the file is also deleted (drained first).
 * Every outcome is logged; a change that cannot be applied is refused with
 * the reason and leaves the running namespace as it was.
 *
 * @module
 */
import type { NamespaceConfig, NamespaceSpec } from "../config/mod.ts";
import { ShardManagerError } from "../core/errors.ts";
import type { Logger } from "../core/logger.ts";
import type { NamespaceDefinitions } from "../store/namespace_definitions.ts";
import { FILE_ACTOR, fileDefinition, type NamespaceAdmin } from "./namespace_admin.ts";
import type { NamespaceHistory } from "./namespace_history.ts";

/** What happened to one namespace of the file. */
export interface FileNamespaceOutcome {
  /** Namespace name. */
  readonly namespace: string;
  /** created, changed, unchanged, deleted, refused or kept (the API's definition wins). */
  readonly action: "created" | "changed" | "unchanged" | "deleted" | "refused" | "kept";
  /** The changes applied, or why it was refused or kept. */
  readonly detail?: string;
}

/** What the seeding works with. */
export interface SeedOptions {
  /** Checks and applies changes. */
  readonly admin: NamespaceAdmin;
  /** The stored definitions. */
  readonly definitions: NamespaceDefinitions;
  /** Where each outcome is logged. */
  readonly logger: Logger;
  /** A reload (SIGHUP): also delete file namespaces that left the file. @default {false} */
  readonly reload?: boolean;
  /** Where creations and refusals are recorded (changes and deletions: the admin). @default {none} */
  readonly history?: NamespaceHistory;
  /**
   * Each namespace as written in the file, in the order of `configs`: what is
   * stored and printed back. @default {written out from each configuration}
   */
  readonly specs?: readonly NamespaceSpec[] | undefined;
}

/** Applies the file's namespaces to the store; returns one outcome per namespace touched. */
export async function seedFileNamespaces(
  configs: readonly NamespaceConfig[],
  options: SeedOptions,
): Promise<FileNamespaceOutcome[]> {
  const { admin, definitions, logger } = options;
  const { definitions: stored } = await definitions.loadDefinitions();
  const outcomes: FileNamespaceOutcome[] = [];
  const record = (outcome: FileNamespaceOutcome) => {
    outcomes.push(outcome);
    if (outcome.action === "created") {
      void options.history?.record(outcome.namespace, {
        type: "namespace_created",
        actor: FILE_ACTOR,
        text: "namespace created from the configuration file",
      });
    } else if (options.reload && (outcome.action === "refused" || outcome.action === "kept")) {
      void options.history?.record(outcome.namespace, {
        type: "operator_refused",
        actor: FILE_ACTOR,
        reason: outcome.detail ?? outcome.action,
        text: `the file's definition was ${outcome.action}: ${outcome.detail ?? ""}`,
      });
    }
    if (outcome.action === "unchanged") return;
    const level = outcome.action === "refused" || outcome.action === "kept" ? "warn" : "info";
    logger[level](`file namespace ${outcome.action}`, {
      namespace: outcome.namespace,
      ...(outcome.detail ? { detail: outcome.detail } : {}),
    });
  };
  for (const [i, config] of configs.entries()) {
    const next = fileDefinition(config, options.specs?.[i]);
    const current = stored.get(config.name);
    try {
      admin.checkFormat(config.name, next.spec);
      if (!current) {
        const revision = await definitions.putDefinition(next, 0);
        record({
          namespace: config.name,
          action: revision === undefined ? "unchanged" : "created",
        });
      } else if (current.source === "api") {
        record({
          namespace: config.name,
          action: "kept",
          detail: "created through the API, which the file does not override; " +
            "delete it through the API to let the file define it",
        });
      } else {
        const { changes } = await admin.apply(current, { ...next, config }, {
          force: false,
          // At start the catalog is not following yet: it loads the new definition itself.
          wait: options.reload ?? false,
        });
        record({
          namespace: config.name,
          action: changes.length === 0 ? "unchanged" : "changed",
          ...(changes.length === 0 ? {} : { detail: changes.join("; ") }),
        });
      }
    } catch (error) {
      if (!(error instanceof ShardManagerError)) throw error;
      record({ namespace: config.name, action: "refused", detail: error.message });
    }
  }
  if (!options.reload) return outcomes;
  const inFile = new Set(configs.map((c) => c.name));
  for (const definition of stored.values()) {
    if (definition.source !== "file" || inFile.has(definition.name)) continue;
    const { undrained, deletedKeys } = await admin.remove(definition);
    record(
      undrained.length > 0
        ? {
          namespace: definition.name,
          action: "refused",
          detail: `shards ${undrained.join(", ")} still have owners after the drain`,
        }
        : { namespace: definition.name, action: "deleted", detail: `${deletedKeys} keys removed` },
    );
  }
  return outcomes;
}
