/**
 * deploy/grafana/shard-manager.json is a valid dashboard whose queries name only metrics a running
 * instance exports; the same holds for the alert rules.
 */
import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import { alertRules, familiesOf, grafanaExpressions, metricsIn } from "./support/metric_names.ts";

Deno.test("the Grafana dashboard is valid JSON with a namespace variable and panels", async () => {
  const path = new URL("../deploy/grafana/shard-manager.json", import.meta.url);
  const dashboard = JSON.parse(await Deno.readTextFile(path));
  assert.equal(dashboard.uid, "shard-manager");
  const variables = dashboard.templating.list.map((v: { name: string }) => v.name);
  assert.deepEqual(variables, ["datasource", "namespace"]);
  assert.ok(dashboard.panels.length >= 20);
  const ids = dashboard.panels.map((p: { id: number }) => p.id);
  assert.equal(new Set(ids).size, ids.length, "panel ids are unique");
  for (const panel of dashboard.panels) {
    const { x, w } = panel.gridPos;
    assert.ok(x >= 0 && x + w <= 24, `panel ${panel.title} fits the 24-column grid`);
  }
});

Deno.test("every metric the dashboard and the alerts query is exported by an instance", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("ops-grafana"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 4 }],
  }));
  try {
    // Observer-fed series (histograms, counters) exist from the start; labelled ones may not,
    // but their `# TYPE` line is always there.
    const page = await (await fetch(`http://${instance.http.address}/metrics`)).text();
    const families = familiesOf(page);
    const exprs = await grafanaExpressions();
    assert.ok(exprs.length >= 20);
    for (const expr of exprs) {
      const names = metricsIn(expr);
      assert.ok(names.size > 0, `a panel query names a metric: ${expr}`);
      for (const name of names) assert.ok(families.has(name), `${name} (dashboard) is exported`);
    }
    for (const { alert, expr } of await alertRules()) {
      for (const name of metricsIn(expr)) {
        assert.ok(families.has(name), `${name} (alert ${alert}) is exported`);
      }
    }
    // And every family is documented in docs/metrics.md.
    const docs = await Deno.readTextFile(new URL("../docs/metrics.md", import.meta.url));
    for (const name of families) assert.ok(docs.includes(`\`${name}\``), `${name} in metrics.md`);
  } finally {
    await instance.stop();
  }
});
