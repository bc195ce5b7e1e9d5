/**
 * Handlers of the namespace RPCs (`CreateNamespace`, `UpdateNamespace`,
 * `DeleteNamespace`, `GetNamespaceDefinition`): definitions travel as YAML
 * text, read with the configuration file's schema by the service.
 *
 * @module
 */
import { formatNamespaceSpec } from "../../config/mod.ts";
import { validateNamespace } from "../../limits/validate_request.ts";
import type { Service } from "../../service/mod.ts";
import type { StoredDefinition } from "../../store/mod.ts";
import type { NamespaceDefinition, ShardDistributorAPIHandlers } from "../../wire/proto.ts";
import { type HandlerContext, unary } from "./unary_handler.ts";

type NamespaceRpcs = Pick<
  ShardDistributorAPIHandlers,
  "CreateNamespace" | "UpdateNamespace" | "DeleteNamespace" | "GetNamespaceDefinition"
>;

/** A stored definition on the wire. */
export function toNamespaceDefinition(definition: StoredDefinition): NamespaceDefinition {
  return {
    namespace: definition.name,
    definitionYaml: formatNamespaceSpec(definition.spec),
    source: definition.source,
    revision: String(definition.revision),
  };
}

/** The namespace RPCs of `ShardDistributorAPI`. */
export function namespaceHandlers(service: Service, context: HandlerContext): NamespaceRpcs {
  const { admin } = service;
  return {
    CreateNamespace: unary(context, "CreateNamespace", async (req) => ({
      definition: toNamespaceDefinition(
        await admin.create(validateNamespace(req.namespace), req.definitionYaml),
      ),
    })),
    UpdateNamespace: unary(context, "UpdateNamespace", async (req) => {
      const { definition, changes } = await admin.update(
        validateNamespace(req.namespace),
        req.definitionYaml,
        { force: req.force, expectedRevision: Number(req.expectedRevision) },
      );
      return { definition: toNamespaceDefinition(definition), changes };
    }),
    DeleteNamespace: unary(context, "DeleteNamespace", async (req) => {
      const timeout = Number(req.drainTimeoutMs);
      const { undrained, deletedKeys } = await admin.delete(
        validateNamespace(req.namespace),
        timeout > 0 ? timeout : undefined,
      );
      return { undrainedShardKeys: undrained, deletedKeys: String(deletedKeys) };
    }),
    GetNamespaceDefinition: unary(context, "GetNamespaceDefinition", async (req) => ({
      definition: toNamespaceDefinition(await admin.read(validateNamespace(req.namespace))),
    })),
  };
}
