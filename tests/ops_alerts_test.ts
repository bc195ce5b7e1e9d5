/**
 * deploy/prometheus/alerts.yaml passes `promtool check rules` and its unit tests
 * (`promtool test rules deploy/prometheus/alerts_test.yaml`). Skipped where promtool is not
 * installed (Debian package `prometheus`; .ci/run installs it).
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";

const DIR = new URL("../deploy/prometheus/", import.meta.url).pathname;

function promtool(): string | undefined {
  for (const path of ["/usr/bin/promtool", "/usr/local/bin/promtool"]) {
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch { /* not there */ }
  }
  return undefined;
}

const PROMTOOL = promtool();

async function run(
  args: readonly string[],
  stdin?: string,
): Promise<{ code: number; out: string }> {
  const child = new Deno.Command(PROMTOOL!, {
    args: [...args],
    cwd: DIR,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const { code, stdout, stderr } = await child.output();
  const decoder = new TextDecoder();
  return { code, out: decoder.decode(stdout) + decoder.decode(stderr) };
}

Deno.test({
  name: "alerts.yaml passes promtool check rules and its promtool unit tests",
  ignore: PROMTOOL === undefined,
  fn: async () => {
    const check = await run(["check", "rules", "alerts.yaml"]);
    assert.equal(check.code, 0, check.out);
    const test = await run(["test", "rules", "alerts_test.yaml"]);
    assert.equal(test.code, 0, test.out);
    assert.match(test.out, /SUCCESS/);
  },
});

Deno.test("every alert of alerts.yaml has a unit test that expects it to fire", async () => {
  const rules = parse(await Deno.readTextFile(`${DIR}alerts.yaml`)) as {
    groups: { rules: { alert: string }[] }[];
  };
  const tests = parse(await Deno.readTextFile(`${DIR}alerts_test.yaml`)) as {
    tests: { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[];
  };
  const firing = new Set(
    tests.tests.flatMap((t) =>
      t.alert_rule_test.filter((a) => a.exp_alerts.length > 0).map((a) => a.alertname)
    ),
  );
  const alerts = rules.groups.flatMap((g) => g.rules.map((r) => r.alert));
  assert.ok(alerts.length >= 7);
  for (const alert of alerts) assert.ok(firing.has(alert), `${alert} is tested firing`);
});

Deno.test({
  name: "a live /metrics page passes promtool check metrics (Prometheus naming lint)",
  ignore: PROMTOOL === undefined,
  fn: async () => {
    await using etcd = await startEtcd();
    const instance = await startInProcess(testConfigYaml({
      endpoints: etcd.endpoints,
      prefix: uniquePrefix("ops-promtool"),
      namespaces: [{ name: "ns", type: "fixed", shardNum: 2 }],
    }));
    try {
      const page = await (await fetch(`http://${instance.http.address}/metrics`)).text();
      const lint = await run(["check", "metrics"], page);
      assert.equal(lint.code, 0, lint.out);
      assert.equal(lint.out.trim(), "", "no naming problems");
      // The lint can fail: a gauge named _total is reported.
      const bad = await run(
        ["check", "metrics"],
        "# HELP x_total a\n# TYPE x_total gauge\nx_total 1\n",
      );
      assert.match(bad.out, /x_total/);
    } finally {
      await instance.stop();
    }
  },
});
