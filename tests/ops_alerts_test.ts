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

/** The anchors GitHub gives the headings of a Markdown text (lower case, punctuation dropped). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = fenced ? null : line.match(/^#{1,6} (.+)$/);
    if (!heading) continue;
    const base = heading[1]!.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "")
      .replaceAll(" ", "-");
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

Deno.test("every alert links a runbook section of docs/operations.md that exists", async () => {
  const rules = parse(await Deno.readTextFile(`${DIR}alerts.yaml`)) as {
    groups: { rules: { alert: string; annotations?: Record<string, string> }[] }[];
  };
  const operations = await Deno.readTextFile(new URL("../docs/operations.md", import.meta.url));
  const anchors = anchorsOf(operations);
  assert.ok(anchors.has("runbooks"), "docs/operations.md has a Runbooks section");
  for (const rule of rules.groups.flatMap((g) => g.rules)) {
    const url = rule.annotations?.runbook_url ?? "";
    const link = url.match(/^docs\/operations\.md#(runbook-[a-z0-9-]+)$/);
    assert.ok(link, `${rule.alert}: runbook_url "${url}" is docs/operations.md#runbook-...`);
    assert.ok(anchors.has(link[1]!), `${rule.alert}: docs/operations.md has #${link[1]}`);
    // The runbook names the alert, so a search for the alert's name finds it.
    const section = operations.slice(operations.indexOf("## Runbooks"));
    assert.ok(section.includes(rule.alert), `${rule.alert} is named in the Runbooks section`);
  }
});

Deno.test("the anchors of Markdown headings are GitHub's", () => {
  const anchors = anchorsOf(
    "# Ops\n### Runbook: store unreachable\n```sh\n# not a heading\n```\n## Ops\n",
  );
  assert.deepEqual([...anchors], ["ops", "runbook-store-unreachable", "ops-1"]);
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
