// deno-lint-ignore-file no-console -- a development launcher talks to people
/**
 * `deno task dev`: a local Shard Manager in one command. Starts an etcd on
 * 127.0.0.1:2379 with its data under `.data/etcd` (unless one already answers
 * there), then the service with `config/dev.yaml`. Ctrl-C stops both.
 *
 * @module
 */

const ETCD_URL = "http://127.0.0.1:2379";

async function etcdAnswers(): Promise<boolean> {
  try {
    const res = await fetch(`${ETCD_URL}/health`, { signal: AbortSignal.timeout(500) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

async function startEtcd(): Promise<Deno.ChildProcess | undefined> {
  if (await etcdAnswers()) {
    console.error(`dev: using the etcd already answering at ${ETCD_URL}`);
    return undefined;
  }
  await Deno.mkdir(".data/etcd", { recursive: true });
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("etcd", {
      args: [
        "--name=dev",
        "--data-dir=.data/etcd",
        `--listen-client-urls=${ETCD_URL}`,
        `--advertise-client-urls=${ETCD_URL}`,
        "--listen-peer-urls=http://127.0.0.1:2380",
        "--auto-compaction-retention=1h",
      ],
      stdout: "null",
      stderr: "null",
    }).spawn();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      console.error(
        "dev: etcd not found. Install it (apt-get install etcd-server) or start one on 127.0.0.1:2379.",
      );
      Deno.exit(1);
    }
    throw error;
  }
  for (let i = 0; i < 100 && !(await etcdAnswers()); i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!(await etcdAnswers())) {
    console.error(
      `dev: etcd did not answer at ${ETCD_URL} within 10 s; is port 2379 or 2380 taken?`,
    );
    child.kill("SIGKILL");
    Deno.exit(1);
  }
  console.error(`dev: started etcd at ${ETCD_URL} (data in .data/etcd)`);
  return child;
}

const etcd = await startEtcd();
// The `start` task holds the service's permissions; one place to keep them.
const service = new Deno.Command(Deno.execPath(), {
  args: ["task", "start", "--config", "config/dev.yaml", ...Deno.args],
  stdin: "null",
}).spawn();
const stop = () => {
  try {
    service.kill("SIGTERM");
  } catch { /* already gone */ }
};
Deno.addSignalListener("SIGINT", stop);
Deno.addSignalListener("SIGTERM", stop);
const status = await service.status;
if (etcd) {
  etcd.kill("SIGTERM");
  await etcd.status;
}
Deno.exit(status.code);
