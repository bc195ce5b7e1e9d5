/**
 * Human output of `leader list`.
 *
 * @module
 */
import { palette as makePalette } from "./colour.ts";
import type { LeaderModel } from "./model.ts";
import { renderTable } from "./table.ts";
import { ago, shortTime } from "./time.ts";

/**
 * The leaders table: namespace, leading instance (`none` in red), term, since
 * and how long ago. `now` is the local clock.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { leaderTable } from "./leader_format.ts";
 *
 * const text = leaderTable([{ namespace: "ns", instanceId: null, term: 0, since: null }], 0);
 * assert.ok(text.includes("none"));
 * ```
 */
export function leaderTable(
  leaders: readonly LeaderModel[],
  now: number,
  paint = makePalette(false),
): string {
  if (leaders.length === 0) return "No namespaces.";
  // Addresses and names only from a service that sends them (older ones do not).
  const located = leaders.some((l) => l.grpcAddress || l.httpAddress || l.instanceName);
  const asOf = viewAgeText(leaders, now);
  return renderTable(
    [
      { header: "NAMESPACE" },
      { header: "LEADER" },
      ...(located ? [{ header: "NAME" }, { header: "GRPC" }, { header: "HTTP" }] : []),
      { header: "TERM", align: "right" },
      { header: "SINCE" },
      { header: "FOR", align: "right" },
    ],
    leaders.map((l) => {
      const since = l.since === null ? null : Date.parse(l.since);
      const unknown = l.unknownSince ? Date.parse(l.unknownSince) : null;
      const who = l.instanceId === null ? paint.red("none") : paint.cyan(l.instanceId);
      return [
        l.namespace,
        unknown === null ? who : `${who} ${paint.yellow(`(unknown since ${shortTime(unknown)})`)}`,
        ...(located ? [l.instanceName ?? "-", l.grpcAddress ?? "-", l.httpAddress ?? "-"] : []),
        l.instanceId === null ? "-" : String(l.term),
        shortTime(since),
        since === null ? "-" : ago(since, now).replace(/ ago$/, ""),
      ];
    }),
    { palette: paint },
  ) + (asOf === undefined ? "" : `\n${paint.yellow(asOf)}`);
}

/**
 * The age of an answer given from the instance's own view while it cannot
 * read its store; undefined when the answer is current.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { viewAgeText } from "./leader_format.ts";
 *
 * const leaders = [{ namespace: "ns", instanceId: "i", term: 1, since: null, unknownSince: "1970-01-01T00:00:01.000Z" }];
 * assert.equal(
 *   viewAgeText(leaders, 5_200),
 *   "As of 4.2 s ago (1970-01-01 00:00:01Z), the instance's last good read; store unreachable.",
 * );
 * assert.equal(viewAgeText([{ ...leaders[0]!, unknownSince: null }], 5_200), undefined);
 * ```
 */
export function viewAgeText(
  leaders: readonly Pick<LeaderModel, "unknownSince">[],
  now: number,
): string | undefined {
  const times = leaders.flatMap((l) => l.unknownSince ? [Date.parse(l.unknownSince)] : []);
  if (times.length === 0) return undefined;
  const oldest = Math.min(...times);
  const age = Math.max(0, now - oldest) / 1_000;
  return `As of ${age.toFixed(1)} s ago (${
    shortTime(oldest)
  }), the instance's last good read; store unreachable.`;
}

/**
 * One line about a namespace's leader, for `namespace describe`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { leaderLine } from "./leader_format.ts";
 *
 * const line = leaderLine({ namespace: "ns", instanceId: "i-1", term: 7, since: "1970-01-01T00:00:01.000Z" }, 61_000);
 * assert.equal(line, "i-1 (term 7, since 1970-01-01 00:00:01Z, 1m ago)");
 * ```
 */
export function leaderLine(
  leader: LeaderModel | undefined,
  now: number,
  paint = makePalette(false),
): string {
  if (leader === undefined || leader.instanceId === null) {
    return leader?.unknownSince
      ? paint.yellow(`unknown since ${shortTime(Date.parse(leader.unknownSince))}`)
      : paint.red("none");
  }
  const since = leader.since === null ? null : Date.parse(leader.since);
  const where = leader.grpcAddress ? ` at ${leader.grpcAddress}` : "";
  const name = leader.instanceName ? `${leader.instanceName} ` : "";
  const unknown = leader.unknownSince
    ? `; ${paint.yellow(`unknown since ${shortTime(Date.parse(leader.unknownSince))}`)}`
    : "";
  return `${name}${paint.cyan(leader.instanceId)}${where} (term ${leader.term}, since ${
    shortTime(since)
  }, ${ago(since, now)}${unknown})`;
}
