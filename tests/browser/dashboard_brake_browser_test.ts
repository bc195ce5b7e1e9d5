/**
 * The dashboard shows issue 41's brakes, in headless Chromium against a real
 * service on real etcd: a quarantined shard is a red chip among the drained
 * shards and is counted in the shard summary; when 3 of 4 executors are lost
 * at once the mass-loss brake's note says ENGAGED, since when, why and how
 * many shards stay unowned; once an operator lifts it, the note says who
 * lifted it.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { createEtcdClient, EtcdStore } from "../../src/store/etcd/mod.ts";
import { startEtcd, uniquePrefix } from "../support/etcd.ts";
import { connect } from "../support/grpc_clients.ts";
import { eventually, runExecutors } from "../support/executors.ts";
import { CHROMIUM, hasChromium, launchChromium } from "../support/browser.ts";
import { startInProcess, testConfigYaml } from "../support/service.ts";

const WAIT_MS = 30_000;
const TIME = "\\d\\d:\\d\\d:\\d\\d";

Deno.test({
  name: hasChromium()
    ? "dashboard in Chromium: a quarantined shard, the mass-loss brake engaged (since, why, unowned) and lifted"
    : `dashboard brake in Chromium: SKIPPED because ${CHROMIUM} is missing`,
  ignore: !hasChromium(),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using etcd = await startEtcd();
    const prefix = uniquePrefix("dash-brake");
    const instance = await startInProcess(
      testConfigYaml({
        endpoints: etcd.endpoints,
        prefix,
        namespaces: [{ name: "orders", type: "fixed", shardNum: 20 }],
        process: { heartbeatTTL: "2s", period: "500ms" },
      }),
      "sm-dash-1",
    );
    const store = new EtcdStore(
      createEtcdClient({ endpoints: etcd.endpoints, dialTimeoutMs: 5_000 }),
      `${prefix}/store`,
    );
    const clients = connect(instance.server.address);
    const executors = runExecutors(clients, "orders", ["e0", "e1", "e2", "e3"], {
      intervalMs: 200,
    });
    let browser: Browser | undefined;
    try {
      await eventually(
        () => executors.every((e) => e.shards.length === 5),
        WAIT_MS,
        "5 shards each",
      );
      browser = await launchChromium();
      const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
      page.setDefaultTimeout(WAIT_MS);
      const problems: string[] = [];
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      await page.goto(`http://${instance.http.address}/`);
      await page.locator("#shard-summary", { hasText: "20 owned, 0 UNOWNED" }).waitFor();
      assert.equal(await page.locator("#brake-note").isVisible(), false, "no brake yet");

      // A poison shard quarantined by the leader (its drain carries the reason).
      await store.setDrained("orders", ["7"], true, "quarantined");
      await page.locator('#drained-list [data-shard="7"].quarantined').waitFor();
      await page.locator("#shard-summary", { hasText: "(1 QUARANTINED)" }).waitFor();

      // Three of four executors lost at once: the brake holds, the survivor takes at most
      // twice its share (10), the rest stays unowned.
      await Promise.all(executors.slice(0, 3).map((e) => e.stop()));
      const note = page.locator("#brake-note.engaged");
      await note.waitFor();
      const text = await note.textContent() ?? "";
      assert.match(
        text,
        new RegExp(
          `^Mass-loss brake ENGAGED since ${TIME} \\([\\d.]+ s\\): Mass-loss brake engaged: 3 of 4 serving executors lost`,
        ),
      );
      let seen = "";
      await eventually(
        async () =>
          /\b9 shards unowned; no balancing moves/.test(seen = await note.textContent() ?? ""),
        WAIT_MS,
        () => `9 shards unowned in the note: ${seen}`,
      );
      assert.match(await note.textContent() ?? "", /smctl namespace brake lift orders$/);
      await page.locator("#shard-summary", { hasText: "10 owned, 9 UNOWNED" }).waitFor();

      // An operator lifts it: the survivor takes the rest, the note says who lifted it.
      assert.deepEqual(await instance.manager.brakes.lift("orders"), { lifted: true });
      const lifted = page.locator("#brake-note.lifted");
      await lifted.waitFor();
      assert.match(
        await lifted.textContent() ?? "",
        new RegExp(`^Mass-loss brake lifted by anonymous at ${TIME} \\(engaged since ${TIME}\\)$`),
      );
      await page.locator("#shard-summary", { hasText: "19 owned, 0 UNOWNED" }).waitFor();
      assert.deepEqual(problems, []);
    } finally {
      await browser?.close();
      await Promise.all(executors.map((e) => e.stop()));
      clients.close();
      await store.close();
      await instance.stop();
    }
  },
});
