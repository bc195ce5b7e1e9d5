/**
 * A single etcd serving clients over TLS, optionally requiring client
 * certificates (`--client-cert-auth`). Its health is polled on a plaintext
 * metrics port. For plain etcd use `startEtcd` from `./etcd.ts`.
 *
 * @module
 */
import { freePorts, httpGet } from "./ports.ts";

/** A running TLS etcd. */
export interface SecureEtcd extends AsyncDisposable {
  /** `localhost:<port>`: the name its certificate carries. */
  readonly endpoint: string;
  /** Stops the process and removes its data dir. */
  close(): Promise<void>;
}

/** Files of {@linkcode startSecureEtcd}. */
export interface SecureEtcdOptions {
  /** etcd's certificate (valid for `localhost`). */
  readonly certFile: string;
  /** etcd's key. */
  readonly keyFile: string;
  /** CA of client certificates; with it, etcd requires one (`--client-cert-auth`). */
  readonly clientCaFile?: string;
}

/**
 * Starts etcd with TLS on free loopback ports and waits until it is healthy.
 *
 * @example
 * ```ts ignore
 * await using etcd = await startSecureEtcd({ certFile, keyFile, clientCaFile });
 * ```
 */
export async function startSecureEtcd(options: SecureEtcdOptions): Promise<SecureEtcd> {
  const dir = await Deno.makeTempDir({ prefix: "etcd-tls-test-" });
  const [client, peer, metrics] = freePorts(3) as [number, number, number];
  const args = [
    "--name=s0",
    `--data-dir=${dir}/data`,
    `--listen-client-urls=https://127.0.0.1:${client}`,
    `--advertise-client-urls=https://localhost:${client}`,
    `--listen-peer-urls=http://127.0.0.1:${peer}`,
    `--initial-advertise-peer-urls=http://127.0.0.1:${peer}`,
    `--initial-cluster=s0=http://127.0.0.1:${peer}`,
    `--listen-metrics-urls=http://127.0.0.1:${metrics}`,
    `--cert-file=${options.certFile}`,
    `--key-file=${options.keyFile}`,
    ...(options.clientCaFile
      ? [`--trusted-ca-file=${options.clientCaFile}`, "--client-cert-auth"]
      : []),
    "--logger=zap",
    `--log-outputs=${dir}/etcd.log`,
  ];
  const env = Object.fromEntries(
    Object.entries(Deno.env.toObject()).filter(([k]) => !k.startsWith("ETCD")),
  );
  const child = new Deno.Command("setpriv", {
    args: ["--pdeathsig", "KILL", "--", "etcd", ...args],
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  let exited = false;
  const status = child.status.then(() => void (exited = true));
  const close = async () => {
    if (!exited) child.kill("SIGKILL");
    await status;
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    const health = await httpGet(metrics, "/health").catch(() => undefined);
    if (health && /"health"\s*:\s*"true"/.test(health)) break;
    if (exited || Date.now() > deadline) {
      const log = await Deno.readTextFile(`${dir}/etcd.log`).catch(() => "(no log)");
      await close();
      throw new Error(`TLS etcd did not start:\n${log.split("\n").slice(-20).join("\n")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { endpoint: `localhost:${client}`, close, [Symbol.asyncDispose]: close };
}
