// deno-lint-ignore-file no-console -- examples print what happens
/**
 * Cell router: a thin HTTP router in front of N cells routes each customer
 * to the cell that owns its partition, and keeps routing from its cached map
 * after Shard Manager (and its store) stop.
 *
 * ```sh
 * deno run -A examples/cell_router/main.ts --cells 3 --port 8000
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { type Child, spawnChild } from "../_shared/child.ts";
import { clockTime, numberFlag, sleep, untilStopped } from "../_shared/cli.ts";
import { type Service, startService } from "../_shared/service.ts";
import { startRouter } from "./router.ts";

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    cells: { type: "string", default: "3" },
    partitions: { type: "string", default: "16" },
    port: { type: "string", default: "8000" },
    "stop-service-after": { type: "string", default: "8" },
    duration: { type: "string", default: "0" },
    help: { type: "boolean" },
  },
});
if (flags.help) {
  console.log(`Usage: deno run -A examples/cell_router/main.ts [--cells 3] [--partitions 16]
       [--port 8000] [--stop-service-after 8] [--duration 0]

  --port N                 the router's port (0: any free port)
  --stop-service-after S   stop Shard Manager (and its store) after S seconds (0: never)
  --duration S             stop after S seconds (0: on Ctrl-C)`);
  Deno.exit(0);
}
const cellCount = numberFlag("cells", flags.cells, 1);
const partitions = numberFlag("partitions", flags.partitions, 1);
const port = numberFlag("port", flags.port, 0);
const stopAfter = numberFlag("stop-service-after", flags["stop-service-after"], 0);
const duration = numberFlag("duration", flags.duration, 0);
const say = (message: string) => console.log(`${clockTime()} ${"router".padEnd(7)} ${message}`);

let service: Service | undefined = await startService({
  namespaces: [{ name: "cells", type: "fixed", shardNum: partitions }],
  onError: (line) => say(`service: ${line}`),
});
say(`Shard Manager listens on ${service.address} (embedded store)`);
const cells: Child[] = [];
for (let i = 0; i < cellCount; i++) {
  const name = `cell-${String.fromCharCode(97 + (i % 26))}${i >= 26 ? i : ""}`;
  cells.push(spawnChild(new URL("./cell.ts", import.meta.url), [
    ...["--service", service.address, "--name", name],
  ], { name, onLine: (line) => console.log(line) }));
}
const router = startRouter({ addresses: [service.address], partitions, port });
say(
  `routing on http://${router.address}; try: curl -i http://${router.address}/customers/42/orders`,
);

await router.spectator.waitReady({ timeoutMs: 30_000 });
while ((router.spectator.placement?.owners.size ?? 0) < partitions) await sleep(100);
say(`every partition has a cell; sending a request a second`);

const stop = new AbortController();
const stopped = untilStopped({
  signal: duration > 0 ? AbortSignal.timeout(duration * 1000) : undefined,
  exitOnRepeat: true,
}).then((why) => {
  stop.abort();
  return why;
});
const started = Date.now();
for (let n = 0; !stop.signal.aborted; n++) {
  if (service && stopAfter > 0 && Date.now() - started >= stopAfter * 1000) {
    say("stopping Shard Manager and its store (SIGKILL): the router keeps its cached map");
    await service.stop("SIGKILL");
    service = undefined;
  }
  const customer = `customer-${(n * 7) % 23}`;
  try {
    const response = await fetch(`http://${router.address}/customers/${customer}/orders`);
    const body = await response.text();
    const cell = response.headers.get("x-routed-to") ?? "-";
    say(
      `${customer} -> partition ${response.headers.get("x-partition")} -> ${cell}: ` +
        `${response.status}${response.ok ? "" : ` ${body}`} ` +
        `(x-routing-stale-ms: ${response.headers.get("x-routing-stale-ms")})`,
    );
  } catch (error) {
    say(`request failed: ${error}`);
  }
  await sleep(1000, stop.signal);
}
say(`stopping (${await stopped})`);
await Promise.all(cells.map((c) => c.stop()));
await router.close();
await service?.stop();
Deno.exit(0);
