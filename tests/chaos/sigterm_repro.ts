// deno-lint-ignore-file no-console -- a reproduction tool that prints what it sees
/**
 * Reproduces the executor crashes the chaos suite finds: SIGTERM a service
 * instance (a graceful stop, which sends HTTP/2 GOAWAY) while executor
 * processes heartbeat to it, and count the executors that die.
 *
 * Usage: `deno run -A tests/chaos/sigterm_repro.ts [rounds] [SIGTERM|SIGKILL]`
 *
 * @module
 */
import { ChaosCluster } from "./cluster.ts";
import { chaosNamespaces } from "./config.ts";
import { Recorder } from "./recorder.ts";

if (import.meta.main) {
  const rounds = Number(Deno.args[0] ?? 10);
  const signal = (Deno.args[1] ?? "SIGTERM") as Deno.Signal;
  const dir = await Deno.makeTempDir({ prefix: "sigterm-repro-" });
  const recorder = new Recorder();
  const cluster = await ChaosCluster.start({
    namespaces: chaosNamespaces({ exclusive: false, shards: 8 }),
    recorder,
    dir,
    services: 3,
    spectators: 1,
  });
  try {
    for (let i = 0; i < rounds; i++) {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await cluster.services[0]!.kill(signal);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await cluster.services[0]!.start();
      console.log(`round ${i + 1}: crashes so far ${recorder.crashes.length}`);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    }
  } finally {
    await cluster.close();
    await Deno.remove(dir, { recursive: true });
  }
  const byCode = new Map<string, number>();
  for (const c of recorder.crashes) {
    const key = `${c.process.replace(/-\d+$/, "")} ${c.known ?? `code ${c.code}`}`;
    byCode.set(key, (byCode.get(key) ?? 0) + 1);
  }
  console.log(
    `${signal} x ${rounds}: ${recorder.crashes.length} unexpected exits`,
    Object.fromEntries(byCode),
  );
}
