/**
 * Metric names in PromQL and on a scrape page, for the tests that check
 * deploy/ (alerts, Grafana) against what an instance really exports.
 *
 * @module
 */

/** The `sm_*` metric names a PromQL expression mentions (histogram series as their family). */
export function metricsIn(expr: string): Set<string> {
  const names = new Set<string>();
  for (const [name] of expr.matchAll(/\bsm_[a-z0-9_]+/g)) {
    names.add(name.replace(/_(bucket|count|sum)$/, ""));
  }
  return names;
}

/** The metric families (`# TYPE` lines) of a Prometheus text page. */
export function familiesOf(page: string): Set<string> {
  return new Set([...page.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
}

/** Every `expr` of the Grafana dashboard in deploy/grafana. */
export async function grafanaExpressions(): Promise<string[]> {
  const path = new URL("../../deploy/grafana/shard-manager.json", import.meta.url);
  const dashboard = JSON.parse(await Deno.readTextFile(path));
  const out: string[] = [];
  const visit = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === "object") {
      for (const [key, v] of Object.entries(value)) {
        if (key === "expr" && typeof v === "string") out.push(v);
        else visit(v);
      }
    }
  };
  visit(dashboard);
  return out;
}

/** Every alerting rule of deploy/prometheus/alerts.yaml: name and expression. */
export async function alertRules(): Promise<{ alert: string; expr: string }[]> {
  const { parse } = await import("yaml");
  const path = new URL("../../deploy/prometheus/alerts.yaml", import.meta.url);
  const rules = parse(await Deno.readTextFile(path)) as {
    groups: { rules: { alert: string; expr: string }[] }[];
  };
  return rules.groups.flatMap((g) => g.rules.map(({ alert, expr }) => ({ alert, expr })));
}
