/**
 * The dashboard in an incident, in headless Chromium, on an instance with
 * dashboard actions off: no drain form or button shows; each namespace's
 * settings are listed; a drained executor's row is greyed and labelled; each
 * executor row has sparklines of its shards and load. Then etcd is paused
 * (SIGSTOP): the LIVE pill turns DEGRADED with "store unreachable since ...;
 * liveness unknown; showing the last good read from ...", and the timeline
 * says "History unavailable: ..." instead of "No events". Screenshots go to
 * a temporary directory, or to docs/dashboard_outage.png when
 * UPDATE_SCREENSHOTS=1.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { startEtcdCluster, uniquePrefix } from "../support/etcd.ts";
import { connect } from "../support/grpc_clients.ts";
import { eventually, runExecutors } from "../support/executors.ts";
import { CHROMIUM, hasChromium, launchChromium } from "../support/browser.ts";
import { startInProcess, testConfigYaml } from "../support/service.ts";

const UPDATE = Deno.env.get("UPDATE_SCREENSHOTS") === "1";
const DIR = UPDATE
  ? new URL("../../docs/", import.meta.url).pathname
  : `${Deno.makeTempDirSync({ prefix: "sm-incident-" })}/`;
const WAIT_MS = 60_000;
const SHARDS = 32;
const EXECUTORS = ["exec-a", "exec-b", "exec-c"];
const TIME = "\\d\\d:\\d\\d:\\d\\d";

/** The part of the browser's `window` the test calls inside the page. */
interface BrowserWindow {
  getComputedStyle(element: unknown): { readonly backgroundColor: string };
}

async function settingOf(page: Page, key: string): Promise<string> {
  return await page.locator(`#settings [data-setting="${key}"] dd`).textContent() ?? "";
}

async function sparkPoints(page: Page, executor: string, kind: "shards" | "loads") {
  const svg = page.locator(`tr[data-executor="${executor}"] svg.spark-${kind}`);
  return Number(await svg.getAttribute("data-points"));
}

Deno.test({
  name: hasChromium()
    ? "dashboard in Chromium during an incident: actions hidden, settings, drained rows, sparklines, DEGRADED and history unavailable while etcd is paused"
    : `dashboard incident in Chromium: SKIPPED because ${CHROMIUM} is missing`,
  ignore: !hasChromium(),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using etcd = await startEtcdCluster(1);
    const instance = await startInProcess(
      testConfigYaml({
        endpoints: etcd.endpoints,
        prefix: uniquePrefix("dash-incident"),
        namespaces: [
          { name: "orders", type: "fixed", shardNum: SHARDS, loadBalancer: "greedy" },
          {
            name: "jobs",
            type: "fixed",
            shardNum: 16,
            ownership: "exclusive",
            maxMovesPerPass: 4,
            maxDrainedShare: 0.34,
          },
        ],
        electionTTL: "30s",
      }),
      "sm-incident-1",
      { dashboardSampleIntervalMs: 500 },
    );
    const clients = connect(instance.server.address);
    const executors = runExecutors(clients, "orders", EXECUTORS, { intervalMs: 300 });
    const member = etcd.members[0]!;
    let paused = false;
    let browser: Browser | undefined;
    try {
      browser = await launchChromium();
      const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
      page.setDefaultTimeout(WAIT_MS);
      const problems: string[] = [];
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));

      await page.goto(`http://${instance.http.address}/`);
      await page.locator("#connection", { hasText: "LIVE" }).waitFor();
      await page.locator("#executor-rows tr").nth(EXECUTORS.length - 1).waitFor();
      await page.locator("#shard-summary", { hasText: `${SHARDS} owned, 0 UNOWNED` }).waitFor();

      // Actions are off: the note says so, and no drain control shows (the selector form did).
      await page.locator("#actions-note").waitFor();
      for (
        const selector of [
          "#selector-form",
          "#shards-input",
          "#shards-drain",
          "#executors th.action",
        ]
      ) {
        assert.equal(await page.locator(selector).isVisible(), false, `${selector} is hidden`);
      }
      assert.equal(
        await page.locator("#executor-rows button").filter({ visible: true }).count(),
        0,
      );
      assert.equal(
        await page.getByRole("button", { name: /drain/i }).filter({ visible: true }).count(),
        0,
        "no visible drain or undrain button",
      );

      // Settings of each namespace.
      await page.locator('#settings [data-setting="ownership"]').waitFor();
      assert.equal(await settingOf(page, "ownership"), "available");
      assert.equal(await settingOf(page, "loadBalancer"), "greedy");
      assert.equal(await settingOf(page, "heartbeatTTL"), "2s");
      assert.equal(await settingOf(page, "maxDrainedShare"), "50% of live executors");
      await page.click('#namespaces [data-ns="jobs"]');
      await page.locator('#settings [data-setting="ownership"]', { hasText: "exclusive" })
        .waitFor();
      assert.equal(await settingOf(page, "ownership"), "exclusive (lease 2s)");
      assert.equal(await settingOf(page, "maxMovesPerPass"), "4");
      assert.equal(await settingOf(page, "maxDrainedShare"), "34% of live executors");
      await page.click('#namespaces [data-ns="orders"]');
      await page.locator("#executor-rows tr").nth(EXECUTORS.length - 1).waitFor();

      // A drained executor (drained by an operator elsewhere: actions are off here) is greyed.
      // (It must hold shards first: balancing waits for the settling window after the last join.)
      await eventually(
        () => executors.every((e) => e.shards.length > 0),
        WAIT_MS,
        "every executor holds shards",
      );
      // (And been sampled holding them: samples are 500 ms apart here.)
      const title = page.locator('tr[data-executor="exec-c"] svg.spark-shards title');
      let seen = "";
      const sampledHolding = async () =>
        /: \d+ to [1-9]\d*$/.test(seen = await title.textContent() ?? "");
      await eventually(sampledHolding, WAIT_MS, () => `exec-c sampled holding shards: ${seen}`);
      await instance.manager.executorDrains.drain("orders", { executorId: "exec-c" }, "disk");
      const drained = page.locator('tr.row-drained[data-executor="exec-c"]');
      await drained.locator(".drained-tag", { hasText: "drained" }).waitFor();
      await drained.locator(".col-shards", { hasText: /^0$/ }).waitFor();
      const background = (executor: string) =>
        page.locator(`tr[data-executor="${executor}"] td.col-shards`)
          .evaluate((td) =>
            (globalThis as unknown as BrowserWindow).getComputedStyle(td).backgroundColor
          );
      assert.notEqual(await background("exec-c"), await background("exec-a"));
      assert.equal(
        await page.locator('tr[data-executor="exec-a"] .drained-tag').isVisible(),
        false,
      );

      // Sparklines: several samples of shards and load per executor.
      await eventually(
        async () => await sparkPoints(page, "exec-a", "shards") >= 4,
        WAIT_MS,
        "exec-a's shards sparkline has 4 samples",
      );
      assert.ok(await sparkPoints(page, "exec-a", "loads") >= 4);
      assert.match(
        await page.locator('tr[data-executor="exec-a"] svg.spark-shards path').getAttribute("d") ??
          "",
        /^M[\d.]+ [\d.]+L/,
      );
      // The drained executor's line falls to 0 (its earlier shards set the top).
      await eventually(
        async () =>
          /^shards over the last [\d.]+ s: 0 to [1-9]\d*$/.test(
            seen = await title.textContent() ?? "",
          ),
        WAIT_MS,
        () => `exec-c's shards sparkline going from its shards to 0; its title: ${seen}`,
      );

      // etcd paused: DEGRADED, not LIVE, in plain words; the history is unavailable, not empty.
      await member.kill("SIGSTOP");
      paused = true;
      await page.locator("#connection", { hasText: "DEGRADED" }).waitFor();
      const note = page.locator("#degraded-note");
      await note.waitFor();
      assert.match(
        await note.textContent() ?? "",
        new RegExp(
          `^Store unreachable since ${TIME} \\([\\d.]+ s\\); liveness unknown; ` +
            `showing the last good read from ${TIME}\\.`,
        ),
      );
      const unavailable = page.locator("#timeline-unavailable");
      await unavailable.waitFor();
      assert.match(
        await unavailable.textContent() ?? "",
        /^History unavailable: the store is unreachable \(.+\), so this instance cannot read the history/,
      );
      assert.equal(await page.locator("#timeline-empty").isVisible(), false);
      await page.locator("#executor-summary", { hasText: "UNKNOWN" }).waitFor();
      // Small PNGs: the top of the page (header to executors), and the timeline.
      const top = await page.locator("#executors").boundingBox();
      assert.ok(top);
      await page.screenshot({
        path: `${DIR}dashboard_outage.png`,
        clip: { x: 0, y: 0, width: 1100, height: Math.ceil(top.y + top.height + 60) },
        fullPage: true,
      });
      await page.locator("#timeline-chart").locator("..").screenshot({
        path: `${DIR}dashboard_outage_timeline.png`,
      });
      for (const name of ["dashboard_outage.png", "dashboard_outage_timeline.png"]) {
        assert.ok(Deno.statSync(`${DIR}${name}`).size > 5_000, name);
      }

      await member.kill("SIGCONT");
      paused = false;
      await page.locator("#connection", { hasText: "LIVE" }).waitFor();
      await note.waitFor({ state: "hidden" });
      await unavailable.waitFor({ state: "hidden" });
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
