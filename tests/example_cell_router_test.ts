import assert from "node:assert/strict";
import { startRouter } from "../examples/cell_router/router.ts";
import { startEtcd } from "./support/etcd.ts";
import { call, connect } from "./support/grpc_clients.ts";
import { startProcess, testConfigYaml } from "./support/service.ts";
import { Nodes, waitFor } from "./support/example_harness.ts";

const CELL = new URL("../examples/cell_router/cell.ts", import.meta.url);
const customers = Array.from({ length: 30 }, (_, i) => `customer-${i}`);
const newcomers = Array.from({ length: 10 }, (_, i) => `newcomer-${i}`);

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

Deno.test("cell router (mode: cells): a drained cell keeps its customers while new ones go elsewhere, and routing goes on from the cached map while Shard Manager and etcd are both down", async () => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: "example-cells",
    namespaces: [{ name: "cells", type: "ephemeral", mode: "cells" }],
  });
  const service = await startProcess(yaml, "cells-1");
  await using nodes = new Nodes();
  await using router = startRouter({ addresses: [service.address], port: 0 });
  const clients = connect(service.address);
  try {
    for (const name of ["cell-a", "cell-b", "cell-c"]) {
      nodes.start(CELL, name, ["--service", service.address, "--name", name]);
    }
    const placement = await waitFor(() => {
      const p = router.spectator.placement;
      return p?.executors.size === 3 && p;
    }, () => `the cells never registered:\n${nodes.output()}`);
    const before = new Map<string, string>();
    const route = (list: string[]) =>
      waitFor(async () => {
        for (const customer of list) {
          const routed = await get(router.address, customer);
          if (routed.status !== 200) return false;
          assert.equal(routed.cell, routed.servedBy, "the cell the router chose served it");
          assert.equal(routed.staleMs, 0);
          const earlier = before.get(customer);
          assert.ok(earlier === undefined || earlier === routed.cell, `${customer} never moves`);
          before.set(customer, routed.cell!);
        }
        return true;
      }, () => `routing failed before the outage:\n${nodes.output()}`);
    await route(customers);
    const counts = [...before.values()].reduce(
      (m, cell) => m.set(cell, (m.get(cell) ?? 0) + 1),
      new Map<string, number>(),
    );
    assert.deepEqual([...counts.values()], [10, 10, 10], "placed on the least-loaded cell");
    assert.equal(placement.executors.size, 3);

    await call(clients.api, "drainExecutors", { namespace: "cells", executorId: "cell-a" });
    await route([...customers, ...newcomers]);
    for (const newcomer of newcomers) {
      assert.notEqual(before.get(newcomer), "cell-a", `${newcomer} avoids the drained cell`);
    }
    assert.equal(
      customers.filter((c) => before.get(c) === "cell-a").length,
      10,
      "the drained cell keeps its customers",
    );

    await service.kill("SIGKILL");
    await etcd.close();
    const status = async () =>
      await (await fetch(`http://${router.address}/status`)).json() as {
        connected: boolean;
        staleMs: number;
        customers: number;
      };
    await waitFor(async () => !(await status()).connected, () => "the router never noticed");

    for (const round of [1, 2]) {
      for (const customer of [...customers, ...newcomers]) {
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
      // Time passes with the service down: the second round routes from a map 1 s older.
      if (round === 1) await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    const { staleMs, customers: cached } = await status();
    assert.ok(staleMs >= 1_000, `staleness grows while down (${staleMs} ms)`);
    assert.equal(cached, 40, "the cached map still has every customer");
    await nodes.stop(4_000);
  } finally {
    clients.close();
    await service.kill("SIGKILL");
  }
});
