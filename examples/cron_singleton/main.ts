// deno-lint-ignore-file no-console -- examples print what happens
/**
 * Cron singleton: a job on a cron expression runs on exactly one of N nodes
 * per tick, and still exactly once per tick after the leader is killed.
 *
 * ```sh
 * deno run -A examples/cron_singleton/main.ts --nodes 3
 * ```
 *
 * Starts Shard Manager (embedded store), N nodes as child processes, kills
 * the leader with SIGKILL after `--kill-leader-after` seconds, and on Ctrl-C
 * (or after `--duration` seconds) audits the ledger.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { type Child, spawnChild } from "../_shared/child.ts";
import { clockTime, numberFlag, untilStopped } from "../_shared/cli.ts";
import { startService } from "../_shared/service.ts";
import { auditLedger } from "./audit.ts";
import { FencedLedger, type LeaseEntry } from "./ledger.ts";

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    nodes: { type: "string", default: "3" },
    cron: { type: "string", default: "* * * * * *" },
    "kill-leader-after": { type: "string", default: "8" },
    duration: { type: "string", default: "0" },
    ledger: { type: "string" },
    help: { type: "boolean" },
  },
});
if (flags.help) {
  console.log(`Usage: deno run -A examples/cron_singleton/main.ts [--nodes 3] [--cron "* * * * * *"]
       [--kill-leader-after 8] [--duration 0] [--ledger FILE]

  --kill-leader-after S  SIGKILL the leading node after S seconds (0: never); it restarts 5 s later
  --duration S           stop after S seconds (0: on Ctrl-C)
  --ledger FILE          keep the ledger there (default: a temporary file)`);
  Deno.exit(0);
}
const nodeCount = numberFlag("nodes", flags.nodes, 1);
const killAfter = numberFlag("kill-leader-after", flags["kill-leader-after"], 0);
const duration = numberFlag("duration", flags.duration, 0);
const say = (message: string) => console.log(`${clockTime()} ${"main".padEnd(7)} ${message}`);

const tmp = await Deno.makeTempDir({ prefix: "cron-singleton-" });
const ledger = new FencedLedger(flags.ledger ?? `${tmp}/ledger.jsonl`);
const service = await startService({
  namespaces: [{ name: "cron-leader", type: "fixed", shardNum: 1 }],
  onError: (line) => say(`service: ${line}`),
});
say(`Shard Manager listens on ${service.address} (embedded store); ledger: ${ledger.path}`);
say(`starting ${nodeCount} nodes; the job runs on "${flags.cron}" on exactly one of them`);

const script = new URL("./node.ts", import.meta.url);
const nodes = new Map<string, Child>();
const start = (name: string) =>
  nodes.set(
    name,
    spawnChild(script, [
      ...["--service", service.address, "--ledger", ledger.path],
      ...["--name", name, "--cron", flags.cron],
    ], { name, onLine: (line) => console.log(line) }),
  );
for (let i = 1; i <= nodeCount; i++) start(`node-${i}`);

const timers: ReturnType<typeof setTimeout>[] = [];
if (killAfter > 0) {
  timers.push(setTimeout(async () => {
    const lease = (await ledger.entries()).filter((e): e is LeaseEntry => e.kind === "lease").at(
      -1,
    );
    const leader = [...nodes.values()].find((n) => n.pid === lease?.pid);
    if (!lease || !leader) return say("no leader yet: nothing to kill");
    say(`SIGKILL ${leader.name} (pid ${leader.pid}), the leader; a survivor takes over in ~3 s`);
    await leader.kill("SIGKILL");
    timers.push(setTimeout(() => {
      say(`restarting ${leader.name}: it rejoins as a follower`);
      start(leader.name);
    }, 5_000));
  }, killAfter * 1000));
}

const why = await untilStopped({
  signal: duration > 0 ? AbortSignal.timeout(duration * 1000) : undefined,
  exitOnRepeat: true,
});
say(`stopping (${why})`);
timers.forEach(clearTimeout);
await Promise.all([...nodes.values()].map((n) => n.stop()));
await service.stop();

const audit = auditLedger(await ledger.entries(), flags.cron);
const ticks = audit.runs.map((r) => r.tick);
say(`ledger: ${ticks.length} ticks from ${ticks[0] ?? "-"} to ${ticks.at(-1) ?? "-"}`);
say(`leaders: ${audit.leaders.map((l) => `${l.node} (token ${l.token})`).join(" -> ")}`);
say(
  `caught up late: ${audit.late.length}; duplicates: ${audit.duplicates.length}; ` +
    `missing: ${audit.missing.length}; out of order: ${audit.outOfOrder.length}`,
);
const ok = audit.duplicates.length + audit.missing.length + audit.outOfOrder.length === 0;
say(ok ? "every tick ran exactly once" : "the ledger has problems (see above)");
if (!flags.ledger) await Deno.remove(tmp, { recursive: true });
Deno.exit(ok ? 0 : 1);
