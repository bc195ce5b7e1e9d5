/**
 * The dashboard's key line for a key-range namespace, in headless Chromium
 * against a real service on real etcd: the hash line is drawn as a strip of
 * its slices (as many as the namespace has), hovering one tells its share of
 * the line, owner and load, and a namespace of another kind has no strip.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { startEtcd, uniquePrefix } from "../support/etcd.ts";
import { connect } from "../support/grpc_clients.ts";
import { eventually, runExecutors } from "../support/executors.ts";
import { CHROMIUM, hasChromium, launchChromium } from "../support/browser.ts";
import { startInProcess, testConfigYaml } from "../support/service.ts";

const WAIT_MS = 30_000;

Deno.test({
  name: hasChromium()
    ? "dashboard in Chromium: a key-range namespace's slices along the hash line"
    : `dashboard key line in Chromium: SKIPPED because ${CHROMIUM} is missing`,
  ignore: !hasChromium(),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using etcd = await startEtcd();
    const instance = await startInProcess(
      testConfigYaml({
        endpoints: etcd.endpoints,
        prefix: uniquePrefix("dash-key-line"),
        namespaces: [
          {
            name: "keys",
            type: "range",
            // Equal loads and a high split threshold: the 8 initial slices stay as they are.
            range: {
              initialSlices: 8,
              slicesPerExecutor: { target: 4, min: 1, max: 16 },
              splitThreshold: 50,
              hotKeyThreshold: 10,
            },
          },
          { name: "orders", type: "fixed", shardNum: 4 },
        ],
      }),
      "sm-dash-line",
    );
    const clients = connect(instance.server.address);
    const executors = [
      ...runExecutors(clients, "keys", ["e0", "e1"], { intervalMs: 200 }),
      ...runExecutors(clients, "orders", ["o0"], { intervalMs: 200 }),
    ];
    let browser: Browser | undefined;
    try {
      await eventually(
        () => executors[0]!.shards.length + executors[1]!.shards.length === 8,
        WAIT_MS,
        "8 slices placed",
      );
      browser = await launchChromium();
      const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
      page.setDefaultTimeout(WAIT_MS);
      const problems: string[] = [];
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      await page.goto(`http://${instance.http.address}/#ns=keys`);
      const strip = page.locator("#key-line");
      await page.locator('#key-line[data-slices="8"]').waitFor();
      assert.equal(await page.locator("#line-section").isVisible(), true);

      // Hovering the middle of the strip names the slice there: an eighth of the line.
      const box = (await strip.boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.56, box.y + box.height / 2);
      const tooltip = page.locator("#line-tooltip");
      await tooltip.waitFor({ state: "visible" });
      assert.match(
        await tooltip.innerText(),
        /^Slice \d+: 12\.50% of the line, owner e[01], load 1$/,
      );

      // The strip is drawn: its pixels are not all one colour.
      const colours = await page.evaluate(`(() => {
        const canvas = document.getElementById("key-line");
        const data = canvas.getContext("2d").getImageData(0, 2, canvas.width, 1).data;
        const seen = new Set();
        for (let i = 0; i < data.length; i += 4) seen.add(data[i] + "," + data[i + 1] + "," + data[i + 2]);
        return seen.size;
      })()`) as number;
      assert.ok(colours >= 2, `owner colours along the top band: ${colours}`);

      // A fixed namespace has no key line.
      await page.locator('[data-ns="orders"]').click();
      await page.locator("#shard-summary", { hasText: "4 owned" }).waitFor();
      assert.equal(await page.locator("#line-section").isVisible(), false);
      assert.deepEqual(problems, []);
    } finally {
      await browser?.close();
      for (const e of executors) await e.stop();
      clients.close();
      await instance.stop();
    }
  },
});
