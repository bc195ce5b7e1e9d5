import assert from "node:assert/strict";
import { startRouter } from "../examples/cell_router/router.ts";
import { startEtcd } from "./support/etcd.ts";
import { startProcess, testConfigYaml } from "./support/service.ts";
import { Nodes, waitFor } from "./support/example_harness.ts";

const CELL = new URL("../examples/cell_router/cell.ts", import.meta.url);
const PARTITIONS = 16;
const customers = Array.from({ length: 40 }, (_, i) => `customer-${i}`);

interface Routed {
  readonly status: number;
  readonly cell: string | null;
  readonly servedBy: string | undefined;
  readonly staleMs: number;
}

async function get(router: string, customer: string): Promise<Routed> {
  const response = await fetch(`http://${router}/customers/${customer}/orders`);
  const body = response.ok ? await response.json() as { cell: string; customer: string } : {
    text: await response.text(),
  };
  assert.ok(!("customer" in body) || body.customer === customer, "the cell saw the customer");
  return {
    status: response.status,
    cell: response.headers.get("x-routed-to"),
    servedBy: "cell" in body ? body.cell : undefined,
    staleMs: Number(response.headers.get("x-routing-stale-ms")),
  };
}

Deno.test("cell router: keeps routing every customer to its cell from the cached map while Shard Manager and etcd are both down", async () => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: "example-cells",
    namespaces: [{ name: "cells", type: "fixed", shardNum: PARTITIONS }],
  });
  const service = await startProcess(yaml, "cells-1");
  await using nodes = new Nodes();
  await using router = startRouter({
    addresses: [service.address],
    partitions: PARTITIONS,
    port: 0,
  });
  try {
    for (const name of ["cell-a", "cell-b", "cell-c"]) {
      nodes.start(CELL, name, ["--service", service.address, "--name", name]);
    }
    const placement = await waitFor(() => {
      const p = router.spectator.placement;
      return p?.owners.size === PARTITIONS && p.executors.size === 3 && p;
    }, () => `the cells never owned every partition:\n${nodes.output()}`);
    const before = new Map<string, string>();
    await waitFor(async () => {
      for (const customer of customers) {
        const routed = await get(router.address, customer);
        if (routed.status !== 200) return false;
        assert.equal(routed.cell, routed.servedBy, "the cell the router chose served it");
        assert.equal(routed.staleMs, 0);
        before.set(customer, routed.cell!);
      }
      return true;
    }, () => `routing failed before the outage:\n${nodes.output()}`);
    assert.equal(new Set(before.values()).size, 3, "customers spread over the cells");
    assert.equal(placement.executors.size, 3);

    await service.kill("SIGKILL");
    await etcd.close();
    const status = async () =>
      await (await fetch(`http://${router.address}/status`)).json() as {
        connected: boolean;
        staleMs: number;
        owned: number;
      };
    await waitFor(async () => !(await status()).connected, () => "the router never noticed");

    for (const round of [1, 2]) {
      for (const customer of customers) {
        const routed = await get(router.address, customer);
        assert.equal(
          routed.status,
          200,
          `${customer}, round ${round}: routed with the service down`,
        );
        assert.equal(routed.cell, before.get(customer), `${customer}: the same cell as before`);
        assert.equal(routed.servedBy, routed.cell);
        assert.ok(routed.staleMs > 0, `${customer}: the router says its map is stale`);
      }
      if (round === 1) await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    const { staleMs, owned } = await status();
    assert.ok(staleMs >= 1_000, `staleness grows while down (${staleMs} ms)`);
    assert.equal(owned, PARTITIONS, "the cached map still has every partition");
    await nodes.stop(4_000);
  } finally {
    await service.kill("SIGKILL");
  }
});
