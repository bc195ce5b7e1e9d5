/**
 * deploy/prometheus/alerts.yaml passes `promtool check rules` and its unit tests
 * (`promtool test rules deploy/prometheus/alerts_test.yaml`). Skipped where promtool is not
 * installed (Debian package `prometheus`; .ci/run installs it).
 */
import assert from "node:assert/strict";
import { parse } from "yaml";

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

async function run(args: readonly string[]): Promise<{ code: number; out: string }> {
  const { code, stdout, stderr } = await new Deno.Command(PROMTOOL!, {
    args: [...args],
    cwd: DIR,
    stdout: "piped",
    stderr: "piped",
  }).output();
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
