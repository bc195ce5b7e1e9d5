/**
 * The dashboard's timeline and its UNKNOWN states in headless Chromium: an
 * executor is lost and the timeline shows the loss and the shards that moved;
 * then etcd is paused (SIGSTOP) and the page says UNKNOWN since the last good
 * read on the executors, the summary and the leader card, not STALE / NO
 * LEADER. Screenshots go to a temporary directory, or to docs/dashboard.png
 * (timeline) and docs/dashboard_unknown.png (outage) when UPDATE_SCREENSHOTS=1.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { startEtcdCluster, uniquePrefix } from "../support/etcd.ts";
import { connect } from "../support/grpc_clients.ts";
import { eventually, runExecutors } from "../support/executors.ts";
import { CHROMIUM, hasChromium, launchChromium } from "../support/browser.ts";
import { startInProcess, testConfigYaml } from "../support/service.ts";

const UPDATE = Deno.env.get("UPDATE_SCREENSHOTS") === "1";
const DIR = UPDATE
  ? new URL("../../docs/", import.meta.url).pathname
  : `${Deno.makeTempDirSync({ prefix: "sm-timeline-" })}/`;
const WAIT_MS = 60_000;
const SHARDS = 96;
const EXECUTORS = ["exec-a", "exec-b", "exec-c", "exec-d"];

Deno.test({
  name: hasChromium()
    ? "dashboard in Chromium: the timeline shows a lost executor's moves; an etcd outage reads UNKNOWN"
    : `dashboard timeline in Chromium: SKIPPED because ${CHROMIUM} is missing`,
  ignore: !hasChromium(),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using etcd = await startEtcdCluster(1);
    const instance = await startInProcess(
      testConfigYaml({
        endpoints: etcd.endpoints,
        prefix: uniquePrefix("dash-timeline"),
        namespaces: [{ name: "orders", type: "fixed", shardNum: SHARDS }],
        electionTTL: "30s",
      }).replace("server:\n", 'server:\n  instanceName: "sm-east-1"\n'),
      "sm-instance-1",
    );
    const clients = connect(instance.server.address);
    const executors = runExecutors(clients, "orders", EXECUTORS, {
      intervalMs: 300,
      metadata: (id) => ({ address: `${id}.example:7933` }),
    });
    const member = etcd.members[0]!;
    let paused = false;
    let browser: Browser | undefined;
    try {
      browser = await launchChromium();
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      page.setDefaultTimeout(WAIT_MS);
      const problems: string[] = [];
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));

      await page.goto(`http://${instance.http.address}/`);
      await page.locator("#executor-rows tr").nth(EXECUTORS.length - 1).waitFor();
      await page.locator("#shard-summary", { hasText: `${SHARDS} owned, 0 UNOWNED` }).waitFor();
      await page.locator("#leader", { hasText: "sm-east-1" }).waitFor();
      await page.locator("#leader", { hasText: `gRPC ${instance.server.address}` }).waitFor();

      // An executor dies: the timeline keeps the loss and the moves. (It must hold shards first:
      // balancing waits for the settling window after the last join.)
      await eventually(
        () => executors.every((e) => e.shards.length > 0),
        WAIT_MS,
        "every executor holds shards",
      );
      await executors[3]!.stop();
      await page.locator('#timeline-rows li[data-type="executor_lost"]', { hasText: "exec-d" })
        .waitFor();
      await page.locator('#timeline-rows li[data-type="assignment_changed"]', {
        hasText: "stale",
      }).first().waitFor();
      await page.locator("#timeline-chart .tl-bar:not(.tl-zero)").first().waitFor();
      const bars = page.locator("#timeline-chart .tl-bar:not(.tl-zero)");
      let moved = 0;
      for (let i = 0; i < await bars.count(); i++) {
        moved += Number(await bars.nth(i).getAttribute("data-moves"));
      }
      assert.ok(moved > 0, `moves in the chart: ${moved}`);
      await page.screenshot({ path: `${DIR}dashboard.png`, fullPage: true });

      // etcd paused: liveness is unknown, not stale, and the leader card says so.
      await member.kill("SIGSTOP");
      paused = true;
      await page.locator("#executor-summary", { hasText: "3 / 4 UNKNOWN" }).waitFor();
      await page.locator("#executor-summary", { hasText: "store unreadable since" }).waitFor();
      await page.locator('#executor-rows tr[data-executor="exec-a"]', {
        hasText: "UNKNOWN since",
      }).waitFor();
      await page.locator("#leader", { hasText: "UNKNOWN since" }).waitFor();
      await page.locator("#leader", { hasText: "last known: sm-east-1" }).waitFor();
      assert.equal(
        await page.locator("#executor-rows .badge", { hasText: "STALE" }).count(),
        1,
        "only the executor lost before the outage is STALE",
      );
      await page.screenshot({ path: `${DIR}dashboard_unknown.png`, fullPage: true });
      assert.ok(Deno.statSync(`${DIR}dashboard.png`).size > 10_000);
      assert.ok(Deno.statSync(`${DIR}dashboard_unknown.png`).size > 10_000);

      await member.kill("SIGCONT");
      paused = false;
      await page.locator("#executor-summary", { hasText: "3 / 4 alive" }).waitFor();
      assert.deepEqual(problems, []);
    } finally {
      if (paused) await member.kill("SIGCONT");
      await browser?.close();
      for (const e of executors) await e.stop();
      clients.close();
      await instance.stop();
    }
  },
});
