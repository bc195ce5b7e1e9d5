// deno-lint-ignore-file no-console -- examples print what happens
/**
 * Cell router: a thin HTTP router in front of N cells routes each customer
 * to its cell. The namespace has `mode: cells`: a new customer is placed once
 * on the least-loaded cell and never moved by balancing. Midway a cell is
 * drained with smctl: its customers stay, new customers go elsewhere. Later
 * Shard Manager (and its store) stop, and the router keeps routing every
 * known customer from its cached map.
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
    port: { type: "string", default: "8000" },
    "drain-after": { type: "string", default: "6" },
    "stop-service-after": { type: "string", default: "12" },
    duration: { type: "string", default: "0" },
    help: { type: "boolean" },
  },
});
if (flags.help) {
  console.log(`Usage: deno run -A examples/cell_router/main.ts [--cells 3] [--port 8000]
       [--drain-after 6] [--stop-service-after 12] [--duration 0]

  --port N                 the router's port (0: any free port)
  --drain-after S          drain cell-a with smctl after S seconds (0: never)
  --stop-service-after S   stop Shard Manager (and its store) after S seconds (0: never)
  --duration S             stop after S seconds (0: on Ctrl-C)`);
  Deno.exit(0);
}
const cellCount = numberFlag("cells", flags.cells, 1);
const port = numberFlag("port", flags.port, 0);
const drainAfter = numberFlag("drain-after", flags["drain-after"], 0);
const stopAfter = numberFlag("stop-service-after", flags["stop-service-after"], 0);
const duration = numberFlag("duration", flags.duration, 0);
const say = (message: string) => console.log(`${clockTime()} ${"router".padEnd(7)} ${message}`);

let service: Service | undefined = await startService({
  namespaces: [{ name: "cells", type: "ephemeral", mode: "cells" }],
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
const router = startRouter({ addresses: [service.address], port });
say(
  `routing on http://${router.address}; try: curl -i http://${router.address}/customers/42/orders`,
);
await router.spectator.waitReady({ timeoutMs: 30_000 });
while ((router.spectator.placement?.executors.size ?? 0) < cellCount) await sleep(100);
say(`${cellCount} cells are up; a request a second, a new customer every other one`);

const stop = new AbortController();
const stopped = untilStopped({
  signal: duration > 0 ? AbortSignal.timeout(duration * 1000) : undefined,
  exitOnRepeat: true,
}).then((why) => {
  stop.abort();
  return why;
});
const started = Date.now();
let drained = false;
const known: string[] = [];
let revisits = 0;
for (let n = 0; !stop.signal.aborted; n++) {
  const elapsed = Date.now() - started;
  if (service && !drained && drainAfter > 0 && elapsed >= drainAfter * 1000) {
    drained = true;
    say("draining cell-a (smctl executor drain): its customers stay, new ones go elsewhere");
    say(`smctl: ${await smctl(service.address, ["executor", "drain", "cell-a"])}`);
  }
  if (service && stopAfter > 0 && elapsed >= stopAfter * 1000) {
    say("stopping Shard Manager and its store (SIGKILL): the router keeps its cached map");
    await service.stop("SIGKILL");
    service = undefined;
  }
  // Even requests revisit a known customer; odd ones bring a new customer.
  const customer = n % 2 === 1 || known.length === 0
    ? `customer-${n}`
    : known[revisits++ % known.length]!;
  try {
    const response = await fetch(`http://${router.address}/customers/${customer}/orders`);
    const body = await response.text();
    const cell = response.headers.get("x-routed-to") ?? "-";
    if (response.ok && !known.includes(customer)) known.push(customer);
    say(
      `${customer} -> ${cell}: ${response.status}${response.ok ? "" : ` ${body.slice(0, 60)}…`} ` +
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

/** Runs smctl against the service and returns its output (the operator's tool). */
async function smctl(address: string, args: string[]): Promise<string> {
  const main = new URL("../../src/smctl/main.ts", import.meta.url).pathname;
  const { stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", main, "--address", address, "-n", "cells", ...args],
    stdin: "null",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes).trim();
  return decode(stdout) || decode(stderr);
}
