/**
 * The dashboard end to end in headless Chromium (Debian's `chromium`, driven
 * by playwright-core; no browser is ever downloaded): real etcd, a real
 * service instance and simulated executors. The test drains an executor with
 * the page's own button, watches a shard change owner without a reload, and
 * saves a screenshot: to a temporary file, or to docs/dashboard_actions.png
 * when UPDATE_SCREENSHOTS=1, so test runs leave the tree clean (the README's
 * docs/dashboard.png comes from dashboard_timeline_browser_test.ts).
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { startEtcd, uniquePrefix } from "../support/etcd.ts";
import { connect } from "../support/grpc_clients.ts";
import { runExecutors } from "../support/executors.ts";
import { runWarmExecutor } from "../support/warm_executors.ts";
import { CHROMIUM, hasChromium, launchChromium } from "../support/browser.ts";
import { startInProcess, testConfigYaml } from "../support/service.ts";

const SCREENSHOT = Deno.env.get("UPDATE_SCREENSHOTS") === "1"
  ? new URL("../../docs/dashboard_actions.png", import.meta.url).pathname
  : `${Deno.makeTempDirSync({ prefix: "sm-dashboard-" })}/dashboard.png`;
/** Generous: CI machines have 2 cores shared with etcd, the service and Chromium. */
const WAIT_MS = 60_000;
const SHARDS = 256;
const EXECUTORS = ["exec-a", "exec-b", "exec-c", "exec-d", "exec-e"];

/**
 * Waits until the executors table lists `rows` executors and the summary says
 * every shard is owned. Waits use locators (CSS selectors) only: the page's
 * Content-Security-Policy forbids eval, which string predicates of
 * `waitForFunction` need.
 */
async function waitForAllOwned(page: Page, rows: number, shards: number): Promise<void> {
  await page.locator("#executor-rows tr").nth(rows - 1).waitFor();
  await page.locator("#shard-summary", { hasText: `${shards} owned, 0 UNOWNED` }).waitFor();
}

/** The lookup result once it names an owner other than `old` (any owner when `old` is ""). */
function lookupOwnerOtherThan(page: Page, old: string) {
  return page.locator(
    `#shard-found[data-owner]:not([data-owner=""]):not([data-owner=${JSON.stringify(old)}])`,
  );
}

async function shardColumn(page: Page): Promise<number[]> {
  return (await page.locator("#executor-rows .col-shards").allTextContents()).map(Number);
}

Deno.test({
  name: hasChromium()
    ? "dashboard in Chromium: shows executors and the shard map, and a shard moves live after a drain"
    : `dashboard in Chromium: SKIPPED because ${CHROMIUM} is missing (apt-get install chromium)`,
  ignore: !hasChromium(),
  // playwright-core keeps its pipes and timers to the browser process open.
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using etcd = await startEtcd();
    const instance = await startInProcess(
      testConfigYaml({
        endpoints: etcd.endpoints,
        prefix: uniquePrefix("dash-browser"),
        namespaces: [
          { name: "orders", type: "fixed", shardNum: SHARDS },
          { name: "sessions", type: "ephemeral" },
          // A warm handover that stays in flight: its incoming executor never prepares.
          {
            name: "jobs",
            type: "fixed",
            shardNum: 2,
            settleWindow: "0s",
            shardCooldown: "0s",
            minImprovement: 0,
            prepareTimeout: "10m",
          },
        ],
      }).replace(
        "  httpAddress: 127.0.0.1:0\n",
        "  httpAddress: 127.0.0.1:0\n  dashboardActions: true\n",
      ),
      "sm-instance-1",
    );
    const clients = connect(instance.server.address);
    const executors = runExecutors(clients, "orders", EXECUTORS, {
      intervalMs: 300,
      metadata: (id) => ({
        address: `${id}.example:7933`,
        zone: id < "exec-c" ? "zone-1" : "zone-2",
      }),
    });
    const warm = [runWarmExecutor(clients, "jobs", "job-a")];
    let browser: Browser | undefined;
    try {
      browser = await launchChromium();
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.setDefaultTimeout(WAIT_MS);
      const problems: string[] = [];
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(`console error: ${message.text()}`);
      });
      page.on("dialog", (dialog) => dialog.accept("browser test"));

      await page.goto(`http://${instance.http.address}/`);
      await page.locator('#namespaces [data-ns="orders"][aria-selected="true"]').waitFor();
      await page.locator("#connection", { hasText: "LIVE" }).waitFor();

      // Every executor listed, every shard owned, and the map drawn with one cell per shard.
      await waitForAllOwned(page, EXECUTORS.length, SHARDS);
      assert.equal((await shardColumn(page)).reduce((a, b) => a + b), SHARDS);
      assert.equal(await page.locator("#shard-map").getAttribute("data-shards"), String(SHARDS));
      await page.locator("#leader", { hasText: "sm-instance-1" }).waitFor();

      // Another namespace (no executors there), then back: the page follows the tab.
      await page.click('#namespaces [data-ns="sessions"]');
      await page.locator("#executors-empty").waitFor();
      assert.equal(await page.locator("#executor-rows tr").count(), 0);
      await page.click('#namespaces [data-ns="orders"]');
      await waitForAllOwned(page, EXECUTORS.length, SHARDS);

      // A warm handover in flight is listed with both executors, and counted in the summary.
      warm.push(runWarmExecutor(clients, "jobs", "job-b", { prepareMs: Infinity }));
      await page.click('#namespaces [data-ns="jobs"]');
      const handover = page.locator("#handover-rows tr", { hasText: "preparing" });
      await handover.waitFor();
      assert.match(await handover.textContent() ?? "", /job-a.*job-b/);
      await page.locator("#shard-summary", { hasText: "1 handing over" }).waitFor();
      await page.click('#namespaces [data-ns="orders"]');
      await waitForAllOwned(page, EXECUTORS.length, SHARDS);

      // Who owns shard 0 now?
      await page.fill("#shard-find", "0");
      await lookupOwnerOtherThan(page, "").waitFor();
      const before = await page.locator("#shard-found").getAttribute("data-owner");
      assert.ok(before && EXECUTORS.includes(before), `owner of shard 0: ${before}`);
      await page.evaluate("window.noReloadMarker = true");

      // Drain that owner with the page's own button (the dialog asks for a reason).
      await page.locator(`tr[data-executor="${before}"] button[data-action="drain"]`).click();
      await page.locator("#banner", { hasText: `Drain executor ${before}: done` }).waitFor();
      await lookupOwnerOtherThan(page, before).waitFor();
      const after = await page.locator("#shard-found").getAttribute("data-owner");
      assert.notEqual(after, before);
      const row = page.locator(`tr[data-executor="${before}"]`);
      await row.locator(".col-shards", { hasText: /^0$/ }).waitFor();
      assert.equal(await row.locator(".col-drained").textContent(), `id:${before}`);
      assert.equal(await row.locator("button.action").textContent(), "Undrain");
      await page.locator(`#drain-rows tr[data-drain="id:${before}"]`).waitFor();
      assert.equal(await page.evaluate("window.noReloadMarker"), true, "the page was not reloaded");

      // Drain two shards from the form; they appear as drained.
      await page.fill("#shards-input", "7, 9");
      await page.click("#shards-drain");
      await page.locator('#drained-list [data-shard="9"]').waitFor();
      await page.locator("#shard-summary", { hasText: "2 drained" }).waitFor();

      // Hovering shard 0's cell shows its new owner.
      const map = page.locator("#shard-map");
      const box = await map.boundingBox();
      const cell = Number(await map.getAttribute("data-cell"));
      assert.ok(box && cell > 0);
      await page.mouse.move(box.x + cell / 2, box.y + cell / 2);
      const tooltip = page.locator("#tooltip");
      await tooltip.waitFor();
      // (Rebalancing may move shard 0 again; it must not be back on the drained executor.)
      const hovered = (await tooltip.textContent() ?? "").match(/^Shard 0: owner (\S+) \(/);
      assert.ok(hovered, `tooltip: ${await tooltip.textContent()}`);
      assert.notEqual(hovered[1], before);

      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      assert.ok(Deno.statSync(SCREENSHOT).size > 10_000, `a screenshot at ${SCREENSHOT}`);
      assert.deepEqual(problems, []);
    } finally {
      await browser?.close();
      for (const e of executors) e.stop();
      await Promise.all(warm.map((e) => e.stop()));
      clients.close();
      await instance.stop();
    }
  },
});
