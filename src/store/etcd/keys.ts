/**
 * The etcd key layout of the main store. See docs/architecture.md.
 *
 * ```
 * <prefix>/ns/<ns>/leader                              leader claim (fencing term)
 * <prefix>/ns/<ns>/executors/<id>/heartbeat            {"status","ts"}
 * <prefix>/ns/<ns>/executors/<id>/metadata             {"k":"v"}
 * <prefix>/ns/<ns>/executors/<id>/reports              {"shard":["READY",load]}
 * <prefix>/ns/<ns>/assignment/head                     last committed change number
 * <prefix>/ns/<ns>/assignment/log/<seq>                one change (or a count of parts)
 * <prefix>/ns/<ns>/assignment/parts/<seq>/<i>          parts of a large change
 * <prefix>/ns/<ns>/assignment/snapshot                 {"seq","parts"} of the folded log
 * <prefix>/ns/<ns>/assignment/snapshot-parts/<seq>/<i> parts of the snapshot
 * <prefix>/ns/<ns>/drained/<shard>                     a drained shard
 * <prefix>/ns/<ns>/executor-drains/<uri-encoded id>    an operator's executor drain
 * <prefix>/ns/<ns>/requests/<shard>                    an ephemeral shard asked for
 * <prefix>/format                                      {"version":N}: the store's format (etcd_format.ts)
 * <prefix>/ns/<ns>/brake                               the mass-loss brake's record (store/brake_store.ts)
 * <prefix>/definitions/<ns>                            {"source","spec"} of a namespace definition
 * <prefix>/operator-requests/<ns>/<uri-encoded id>     an applied operator request id
 * ```
 *
 * Applied request ids live outside the namespace's root, so a force reset
 * (which deletes the root) keeps them and is itself deduplicated.
 *
 * @module
 */

/** Zero-pads sequence numbers so that keys sort numerically. */
export function seqKey(seq: number): string {
  return String(seq).padStart(16, "0");
}

/** Key builders for one namespace. */
export class NamespaceKeys {
  /** `<prefix>/ns/<ns>/`: every key of the namespace starts with it. */
  readonly root: string;

  /** Builds the layout for `namespace` under `prefix`. */
  constructor(prefix: string, namespace: string) {
    this.root = `${prefix}/ns/${namespace}/`;
  }

  /** The leader claim. */
  get leader(): string {
    return `${this.root}leader`;
  }
  /** Prefix of every executor key. */
  get executors(): string {
    return `${this.root}executors/`;
  }
  /** One executor's key for `part`. */
  executor(id: string, part: "heartbeat" | "metadata" | "reports"): string {
    return `${this.root}executors/${id}/${part}`;
  }
  /** The last committed assignment change number. */
  get head(): string {
    return `${this.root}assignment/head`;
  }
  /** Prefix of the assignment change log. */
  get log(): string {
    return `${this.root}assignment/log/`;
  }
  /** One change of the log. */
  logEntry(seq: number): string {
    return `${this.log}${seqKey(seq)}`;
  }
  /** Prefix of the parts of change `seq` (or of all parts). */
  parts(seq?: number): string {
    return `${this.root}assignment/parts/${seq === undefined ? "" : `${seqKey(seq)}/`}`;
  }
  /** The snapshot pointer. */
  get snapshot(): string {
    return `${this.root}assignment/snapshot`;
  }
  /** Prefix of the parts of snapshot `seq` (or of all snapshot parts). */
  snapshotParts(seq?: number): string {
    return `${this.root}assignment/snapshot-parts/${seq === undefined ? "" : `${seqKey(seq)}/`}`;
  }
  /** Prefix of drained shards. */
  get drained(): string {
    return `${this.root}drained/`;
  }
  /** Prefix of executor drains. */
  get executorDrains(): string {
    return `${this.root}executor-drains/`;
  }
  /** One executor drain (ids hold "/" and "=", so they are URI-encoded). */
  executorDrain(id: string): string {
    return `${this.executorDrains}${encodeURIComponent(id)}`;
  }
  /** The mass-loss brake's record (ignored by loads and the change feed). */
  get brake(): string {
    return `${this.root}brake`;
  }
  /** Prefix of ephemeral shard requests. */
  get requests(): string {
    return `${this.root}requests/`;
  }
}

/** `<prefix>/operator-requests/<ns>/`: where a namespace's applied request ids are kept. */
export function operatorRequestsPrefix(prefix: string, namespace: string): string {
  return `${prefix}/operator-requests/${namespace}/`;
}

/** What a key of the namespace is, decoded. */
export type ParsedKey =
  | { kind: "leader" }
  | { kind: "executor"; executorId: string; part: "heartbeat" | "metadata" | "reports" }
  | { kind: "head" }
  | { kind: "log"; seq: number }
  | { kind: "parts"; seq: number; index: number }
  | { kind: "snapshot" }
  | { kind: "snapshot-parts"; seq: number; index: number }
  | { kind: "drained"; shardKey: string }
  | { kind: "executor-drain"; id: string }
  | { kind: "requested"; shardKey: string }
  | { kind: "unknown" };

const EXECUTOR_PARTS = new Set(["heartbeat", "metadata", "reports"]);

/** Decodes a key that starts with `keys.root`. */
export function parseKey(keys: NamespaceKeys, key: string): ParsedKey {
  if (!key.startsWith(keys.root)) return { kind: "unknown" };
  const rest = key.slice(keys.root.length);
  if (rest === "leader") return { kind: "leader" };
  if (rest.startsWith("executors/")) {
    const body = rest.slice("executors/".length);
    const slash = body.lastIndexOf("/");
    const part = body.slice(slash + 1);
    if (slash <= 0 || !EXECUTOR_PARTS.has(part)) return { kind: "unknown" };
    return {
      kind: "executor",
      executorId: body.slice(0, slash),
      part: part as "heartbeat" | "metadata" | "reports",
    };
  }
  if (rest.startsWith("drained/")) return { kind: "drained", shardKey: rest.slice(8) };
  if (rest.startsWith("requests/")) return { kind: "requested", shardKey: rest.slice(9) };
  if (rest.startsWith("executor-drains/")) {
    try {
      return { kind: "executor-drain", id: decodeURIComponent(rest.slice(16)) };
    } catch {
      return { kind: "unknown" };
    }
  }
  if (rest === "assignment/head") return { kind: "head" };
  if (rest === "assignment/snapshot") return { kind: "snapshot" };
  const [area, a, b] = rest.split("/").slice(1);
  if (rest.startsWith("assignment/log/")) return { kind: "log", seq: Number(a) };
  if (rest.startsWith("assignment/parts/")) {
    return { kind: "parts", seq: Number(a), index: Number(b) };
  }
  if (area === "snapshot-parts") {
    return { kind: "snapshot-parts", seq: Number(a), index: Number(b) };
  }
  return { kind: "unknown" };
}

/** The end of the key range that covers every key starting with `prefix`. */
export function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}
