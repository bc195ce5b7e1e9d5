/**
 * A real Prometheus (Debian package `prometheus`, /usr/bin/prometheus) scrapes a running instance
 * with deploy/prometheus/alerts.yaml loaded: the target is up, the scraped figures are right, every
 * alert expression and every Grafana query evaluates without error through the HTTP API, and the
 * rule manager reports every rule healthy. Skipped where Prometheus is not installed.
 */
import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { connect } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { freePort } from "./support/ports.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import { alertRules, grafanaExpressions } from "./support/metric_names.ts";

const PROMETHEUS = "/usr/bin/prometheus";
const installed = (() => {
  try {
    return Deno.statSync(PROMETHEUS).isFile;
  } catch {
    return false;
  }
})();
const ALERTS = new URL("../deploy/prometheus/alerts.yaml", import.meta.url).pathname;

interface ApiAnswer<T> {
  status: "success" | "error";
  data: T;
  error?: string;
  errorType?: string;
}

Deno.test({
  name: "a real Prometheus scrapes an instance and evaluates every alert and panel query",
  ignore: !installed,
  fn: async () => {
    await using etcd = await startEtcd();
    const instance = await startInProcess(testConfigYaml({
      endpoints: etcd.endpoints,
      prefix: uniquePrefix("ops-prometheus"),
      namespaces: [{ name: "ns", type: "fixed", shardNum: 6 }],
    }));
    const clients = connect(instance.server.address);
    const executors = runExecutors(clients, "ns", ["a", "b"], { intervalMs: 200 });
    const dir = await Deno.makeTempDir({ prefix: "sm-prometheus-" });
    const port = freePort();
    await Deno.writeTextFile(
      `${dir}/prometheus.yml`,
      `global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - ${JSON.stringify(ALERTS)}
scrape_configs:
  - job_name: shard-manager
    static_configs:
      - targets: [${JSON.stringify(instance.http.address)}]
`,
    );
    const prometheus = new Deno.Command(PROMETHEUS, {
      args: [
        `--config.file=${dir}/prometheus.yml`,
        `--storage.tsdb.path=${dir}/data`,
        `--web.listen-address=127.0.0.1:${port}`,
        "--log.level=warn",
      ],
      stdout: "null",
      stderr: "piped",
      stdin: "null",
    }).spawn();
    let logs = "";
    const reading = (async () => {
      for await (const chunk of prometheus.stderr.pipeThrough(new TextDecoderStream())) {
        logs += chunk;
      }
    })();
    const api = async <T>(path: string): Promise<ApiAnswer<T>> => {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      return await res.json() as ApiAnswer<T>;
    };
    const query = (expr: string) =>
      api<{ resultType: string; result: { metric: Record<string, string>; value: unknown[] }[] }>(
        `/api/v1/query?query=${encodeURIComponent(expr)}`,
      );
    try {
      await eventually(
        async () => {
          try {
            return (await fetch(`http://127.0.0.1:${port}/-/ready`)).ok;
          } catch {
            return false;
          }
        },
        30_000,
        "Prometheus to be ready",
      );
      await eventually(
        async () => {
          const answer = await query('sm_shards_owned{job="shard-manager",namespace="ns"}');
          return answer.data.result[0]?.value[1] === "6";
        },
        30_000,
        "a scrape with six owned shards",
      );
      const up = await query('up{job="shard-manager"}');
      assert.equal(up.data.result[0]?.value[1], "1", "the target is up");
      const unowned = await query('sm_shards_unowned{namespace="ns"}');
      assert.equal(unowned.data.result[0]?.value[1], "0");

      for (const { alert, expr } of await alertRules()) {
        const answer = await query(expr);
        assert.equal(answer.status, "success", `${alert}: ${answer.error ?? ""}`);
      }
      for (const expr of await grafanaExpressions()) {
        const answer = await query(expr.replaceAll("$namespace", ".*"));
        assert.equal(answer.status, "success", `${expr}: ${answer.error ?? ""}`);
      }
      // The rule manager evaluated every rule, with no error.
      await eventually(
        async () => {
          const rules = await api<
            { groups: { rules: { name: string; health: string; lastError?: string }[] }[] }
          >("/api/v1/rules");
          const all = rules.data.groups.flatMap((g) => g.rules);
          const bad = all.filter((r) => r.health !== "ok");
          if (bad.length > 0 && bad.some((r) => r.health === "err")) {
            throw new Error(`rules failed: ${JSON.stringify(bad)}`);
          }
          return all.length >= 8 && bad.length === 0;
        },
        15_000,
        "every rule evaluated",
      );
      // Nothing is wrong with this namespace: once the rules see a settled scrape, no alert about
      // it is pending or firing (one may be pending from before the executors got their shards).
      let left: unknown[] = [];
      await eventually(
        async () => {
          const alerts = await api<{ alerts: { labels: Record<string, string> }[] }>(
            "/api/v1/alerts",
          );
          left = alerts.data.alerts.filter((a) => a.labels.namespace === "ns");
          return left.length === 0;
        },
        10_000,
        "no alert about a healthy namespace",
      ).catch((error) => {
        throw new Error(`${error.message}: ${JSON.stringify(left)}`);
      });
    } catch (error) {
      throw new Error(`${(error as Error).message}\nPrometheus logged:\n${logs}`, { cause: error });
    } finally {
      prometheus.kill("SIGTERM");
      await prometheus.status;
      await reading;
      for (const e of executors) e.stop();
      clients.close();
      await instance.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
