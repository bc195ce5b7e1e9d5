/**
 * Real etcd servers for integration tests: one member or a small cluster on
 * free loopback ports, each with a fresh temporary data dir (`$TMPDIR/etcd-test-*`,
 * with each member's log beside its data). The binary is `etcd` on PATH, or
 * `ETCD_BIN`. etcd keeps its own timing defaults (100 ms heartbeat, 1 s
 * election timeout), so leases behave as in production: the shortest is 2 s.
 *
 * No process outlives the test process: each is started under
 * `setpriv --pdeathsig KILL` (util-linux), so it dies even when a test crashes
 * before `close()`; the data dirs such a crash leaves are removed by the next
 * run once their owner's pid is gone.
 *
 * @module
 */
import { freePorts, httpGet } from "./ports.ts";

/** A running etcd (or the external one named by `ETCD_ENDPOINTS`). */
export interface Etcd extends AsyncDisposable {
  /** Client endpoints such as `"127.0.0.1:23790"`, ready for `new Etcd3({ hosts })`. */
  readonly endpoints: string[];
  /** Stops every process (SIGTERM, then SIGKILL after 1 s) and removes the data dirs. */
  close(): Promise<void>;
}

/** One member of an {@linkcode EtcdCluster}. */
export interface EtcdMember {
  /** The member name, `m0`, `m1`, ... */
  readonly name: string;
  /** This member's client endpoint, e.g. `"127.0.0.1:23790"`. */
  readonly clientEndpoint: string;
  /** Whether the process is alive (a member paused with SIGSTOP still counts). */
  readonly running: boolean;
  /** The etcd process's id while it runs (for resource samples). */
  readonly pid: number | undefined;
  /**
   * Sends `signal` (default `"SIGKILL"`, a crash) and waits for the process to
   * exit, escalating to SIGKILL after 5 s. `"SIGSTOP"`/`"SIGCONT"` pause and
   * resume the member without waiting.
   */
  kill(signal?: Deno.Signal): Promise<void>;
  /**
   * Restarts a stopped member with the same ports and data dir. Unless `wait`
   * is false it resolves once the member reports healthy, which needs a quorum.
   */
  start(options?: { wait?: boolean }): Promise<void>;
}

/** A cluster started by {@linkcode startEtcdCluster}. */
export interface EtcdCluster extends Etcd {
  /** The members, in the order of `endpoints`. */
  readonly members: EtcdMember[];
}

/** Options for {@linkcode startEtcd} and {@linkcode startEtcdCluster}. */
export interface EtcdOptions {
  /** `--quota-backend-bytes`. @default {undefined} etcd's own 2 GiB */
  quotaBackendBytes?: number;
  /**
   * `--auto-compaction-retention` in periodic mode, e.g. `"1m"`. Off by default:
   * a test etcd lives for seconds and holds little history, and a background
   * compaction could race a test that watches from an old revision. Tests of
   * compaction call `compact` themselves or set this.
   * @default {undefined} no auto compaction
   */
  autoCompactionRetention?: string;
  /** `--max-txn-ops`. @default {undefined} etcd's own 128 */
  maxTxnOps?: number;
  /** More etcd flags, e.g. `["--heartbeat-interval=50", "--election-timeout=500"]`. @default {[]} */
  extraArgs?: string[];
  /** How long to wait for the members to report healthy. @default {15000} */
  startTimeoutMs?: number;
  /**
   * The address each member listens on, by member index (the chaos harness's
   * network namespaces). @default {"127.0.0.1" for every member}
   */
  hosts?: readonly string[];
  /**
   * Wraps member `i`'s etcd command line, e.g. in `ip netns exec NAME`.
   * @default {the command unchanged}
   */
  wrap?: (member: number, command: readonly string[]) => readonly string[];
}

const MISSING = "etcd not found: apt-get install etcd-server, or set ETCD_ENDPOINTS";
const KILL_GRACE_MS = 5_000;
const CLOSE_GRACE_MS = 1_000;
const live = new Set<Cluster>();
const swept = new Map<string, Promise<void>>();

/**
 * Starts one etcd on free loopback ports, or returns the endpoints in
 * `ETCD_ENDPOINTS` (comma-separated), in which case `close()` does nothing.
 *
 * @example Put and get a key
 * ```ts ignore
 * import { Etcd3 } from "etcd3";
 * import { startEtcd, uniquePrefix } from "./etcd.ts";
 *
 * await using etcd = await startEtcd();
 * const client = new Etcd3({ hosts: etcd.endpoints });
 * await client.put(`${uniquePrefix("example")}/k`).value("v");
 * client.close();
 * ```
 */
export async function startEtcd(options: EtcdOptions = {}): Promise<Etcd> {
  validate(options);
  const external = Deno.env.get("ETCD_ENDPOINTS")?.split(",").map((e) => e.trim()) ?? [];
  const endpoints = external.filter((e) => e !== "");
  if (endpoints.length === 0) return await launch(1, options);
  const close = () => Promise.resolve();
  return { endpoints, close, [Symbol.asyncDispose]: close };
}

/**
 * Starts a `size`-member cluster (default 3) on loopback with a static
 * `--initial-cluster` and waits until every member is healthy. It always
 * starts its own processes, even when `ETCD_ENDPOINTS` is set.
 *
 * @example Kill a member and restart it
 * ```ts ignore
 * import { startEtcdCluster } from "./etcd.ts";
 *
 * await using cluster = await startEtcdCluster(3);
 * await cluster.members[0]!.kill();
 * await cluster.members[0]!.start();
 * ```
 */
export async function startEtcdCluster(
  size = 3,
  options: EtcdOptions = {},
): Promise<EtcdCluster> {
  if (!Number.isInteger(size) || size < 1 || size > 9) {
    throw new RangeError(`Cannot start an etcd cluster: size must be an integer 1..9, got ${size}`);
  }
  validate(options);
  return await launch(size, options);
}

/** What {@linkcode etcdForFile} returns. */
export interface FileEtcd {
  /** The running etcd's endpoints; throws outside the file's tests. */
  readonly endpoints: string[];
}

/**
 * One etcd for the tests of the calling file: started before its first test
 * and stopped after its last (`Deno.test.beforeAll`/`afterAll`), so every test
 * owns its setup, any one runs alone under `--filter`, and none is a teardown.
 * Call it at the top level of a test file; give each test its own prefix
 * ({@linkcode uniquePrefix}).
 *
 * @example
 * ```ts ignore
 * // A test file (a doc test cannot register test hooks):
 * import { etcdForFile, uniquePrefix } from "./support/etcd.ts";
 *
 * const etcd = etcdForFile();
 * Deno.test("puts a key", async () => {
 *   const client = new Etcd3({ hosts: etcd.endpoints });
 *   await client.put(`${uniquePrefix("puts a key")}/k`).value("v");
 *   client.close();
 * });
 * ```
 */
export function etcdForFile(options: EtcdOptions = {}): FileEtcd {
  validate(options);
  let etcd: Etcd | undefined;
  Deno.test.beforeAll(async () => {
    etcd = await startEtcd(options);
  });
  Deno.test.afterAll(async () => {
    await etcd?.close();
    etcd = undefined;
  });
  return {
    get endpoints() {
      if (etcd === undefined) throw new Error("The file's etcd runs only while its tests run");
      return etcd.endpoints;
    },
  };
}

/**
 * A key prefix unique to one test, `t-<name>-<random>`, with no trailing
 * separator: write keys as `${prefix}/key`.
 *
 * @example
 * ```ts
 * import { uniquePrefix } from "./etcd.ts";
 *
 * const prefix = uniquePrefix("Leader election"); // e.g. "t-leader-election-3f9c2a1b7d4e"
 * ```
 */
export function uniquePrefix(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40);
  return `t-${slug || "test"}-${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
}

function validate(options: EtcdOptions): void {
  const { quotaBackendBytes: quota, maxTxnOps, extraArgs, startTimeoutMs } = options;
  if (quota !== undefined && (!Number.isSafeInteger(quota) || quota <= 0)) {
    throw new RangeError(`quotaBackendBytes must be a positive integer, got ${quota}`);
  }
  if (maxTxnOps !== undefined && (!Number.isSafeInteger(maxTxnOps) || maxTxnOps <= 0)) {
    throw new RangeError(`maxTxnOps must be a positive integer, got ${maxTxnOps}`);
  }
  if (startTimeoutMs !== undefined && !(startTimeoutMs > 0)) {
    throw new RangeError(`startTimeoutMs must be positive, got ${startTimeoutMs}`);
  }
  if (options.hosts !== undefined && !options.hosts.every((h) => /^[\d.]+$/.test(h))) {
    throw new TypeError(`hosts must be IPv4 addresses, got ${JSON.stringify(options.hosts)}`);
  }
  if (extraArgs !== undefined && !extraArgs.every((a) => typeof a === "string")) {
    throw new TypeError(`extraArgs must be an array of strings, got ${JSON.stringify(extraArgs)}`);
  }
}

async function launch(size: number, options: EtcdOptions): Promise<Cluster> {
  const etcd = Deno.env.get("ETCD_BIN") ?? findOnPath("etcd");
  if (etcd === undefined) throw new Deno.errors.NotFound(MISSING);
  const setpriv = findOnPath("setpriv");
  for (let attempt = 1;; attempt++) {
    const cluster = await Cluster.create(size, options, etcd, setpriv);
    const deadline = Date.now() + (options.startTimeoutMs ?? 15_000);
    try {
      // A new member asks its peers for the member list and gives each peer
      // port that accepts but does not serve yet a 1 s timeout, so members
      // start one by one, each once the previous one serves peer traffic.
      for (const member of cluster.members) {
        member.spawn();
        if (size > 1) {
          await waitFor([member], deadline, (m) => httpGet(m.peerPort, "/version", 500, m.host));
        }
      }
      await waitFor(cluster.members, deadline, (m) => isHealthy(m.port, m.host));
      return cluster;
    } catch (error) {
      await cluster.close();
      // freePort() cannot reserve a port: another process may have taken it.
      if (attempt >= 3 || !String(error).includes("address already in use")) throw error;
    }
  }
}

class Cluster implements EtcdCluster {
  readonly members: Member[];
  readonly endpoints: string[];
  readonly #root: string;
  #closed = false;

  private constructor(root: string, members: Member[]) {
    this.#root = root;
    this.members = members;
    this.endpoints = members.map((m) => m.clientEndpoint);
    if (live.size === 0) addEventListener("unload", killLeftovers);
    live.add(this);
  }

  static async create(size: number, options: EtcdOptions, etcd: string, setpriv?: string) {
    const root = await Deno.makeTempDir({ prefix: "etcd-test-" });
    await Deno.writeTextFile(`${root}/owner.pid`, `${Deno.pid}\n`);
    const tmp = root.slice(0, root.lastIndexOf("/"));
    if (!swept.has(tmp)) swept.set(tmp, sweepStaleDirs(tmp));
    await swept.get(tmp);
    const ports = freePorts(2 * size);
    const host = (i: number) => options.hosts?.[i] ?? "127.0.0.1";
    const peer = (i: number) => `http://${host(i)}:${ports[2 * i + 1]}`;
    const names = Array.from({ length: size }, (_, i) => `m${i}`);
    const initialCluster = names.map((name, i) => `${name}=${peer(i)}`).join(",");
    const token = `test-${crypto.randomUUID()}`;
    const members = names.map((name, i) => {
      const client = `http://${host(i)}:${ports[2 * i]}`;
      const args = [
        `--name=${name}`,
        `--data-dir=${root}/${name}`,
        `--listen-client-urls=${client}`,
        `--advertise-client-urls=${client}`,
        `--listen-peer-urls=${peer(i)}`,
        `--initial-advertise-peer-urls=${peer(i)}`,
        `--initial-cluster=${initialCluster}`,
        "--initial-cluster-state=new",
        `--initial-cluster-token=${token}`,
        "--logger=zap",
        "--log-outputs=stderr",
        ...etcdFlags(options),
      ];
      const log = `${root}/${name}.log`;
      const command = options.wrap?.(i, [etcd, ...args]) ?? [etcd, ...args];
      const ports2: [number, number] = [ports[2 * i]!, ports[2 * i + 1]!];
      return new Member(name, ports2, [...command], log, setpriv, host(i));
    });
    return new Cluster(root, members);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // One at a time: a leader that gets SIGTERM first hands leadership to a
    // follower, and waits out a 5 s timeout if that follower is stopping too.
    for (const member of this.members) await member.stop();
    live.delete(this);
    if (live.size === 0) removeEventListener("unload", killLeftovers);
    await Deno.remove(this.#root, { recursive: true }).catch(() => {});
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

function etcdFlags(options: EtcdOptions): string[] {
  const { quotaBackendBytes: quota, autoCompactionRetention: retention, maxTxnOps } = options;
  return [
    ...(quota === undefined ? [] : [`--quota-backend-bytes=${quota}`]),
    ...(retention === undefined
      ? []
      : ["--auto-compaction-mode=periodic", `--auto-compaction-retention=${retention}`]),
    ...(maxTxnOps === undefined ? [] : [`--max-txn-ops=${maxTxnOps}`]),
    ...(options.extraArgs ?? []),
  ];
}

class Member implements EtcdMember {
  readonly name: string;
  readonly clientEndpoint: string;
  readonly host: string;
  readonly port: number;
  readonly peerPort: number;
  readonly logPath: string;
  readonly #command: string[];
  #child: Deno.ChildProcess | undefined;
  #exited: Promise<unknown> = Promise.resolve();
  #running = false;
  #closed = false;

  constructor(
    name: string,
    ports: [number, number],
    cmd: string[],
    logPath: string,
    setpriv?: string,
    host = "127.0.0.1",
  ) {
    this.name = name;
    this.host = host;
    [this.port, this.peerPort] = ports;
    this.clientEndpoint = `${host}:${this.port}`;
    this.logPath = logPath;
    // sh appends both output streams to the log; setpriv ties the process to our lifetime.
    const wrap = setpriv === undefined ? [] : [setpriv, "--pdeathsig", "KILL", "--"];
    const script = 'log=$1; shift; exec "$@" >>"$log" 2>&1';
    this.#command = ["-c", script, "sh", logPath, ...wrap, ...cmd];
  }

  get running(): boolean {
    return this.#running;
  }

  /** `sh` execs `setpriv`, which execs etcd: one process, one id. */
  get pid(): number | undefined {
    return this.#running ? this.#child?.pid : undefined;
  }

  spawn(): void {
    // etcd reads ETCD_* variables as flags, so a caller's ETCD_ENDPOINTS must not reach it.
    const env = Object.fromEntries(
      Object.entries(Deno.env.toObject()).filter(([k]) => !k.startsWith("ETCD")),
    );
    const child = new Deno.Command("sh", {
      args: this.#command,
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    this.#child = child;
    this.#running = true;
    this.#exited = child.status.then(() => {
      if (this.#child === child) this.#running = false;
    });
  }

  async kill(signal: Deno.Signal = "SIGKILL"): Promise<void> {
    if (!this.#running) return;
    this.#signal(signal);
    if (signal === "SIGSTOP" || signal === "SIGCONT" || signal === "SIGTSTP") return;
    await this.#waitExit(KILL_GRACE_MS);
  }

  async start(options: { wait?: boolean } = {}): Promise<void> {
    if (this.#closed) throw new Error(`Cannot start etcd member ${this.name}: it was closed`);
    if (this.#running) throw new Error(`Cannot start etcd member ${this.name}: it is running`);
    this.spawn();
    if (options.wait ?? true) {
      await waitFor([this], Date.now() + 15_000, (m) => isHealthy(m.port, m.host));
    }
  }

  /** Stops for good: resumes a paused process so SIGTERM can land, then SIGTERM. */
  async stop(): Promise<void> {
    this.#closed = true;
    if (!this.#running) return;
    this.#signal("SIGCONT");
    this.#signal("SIGTERM");
    await this.#waitExit(CLOSE_GRACE_MS);
  }

  killSync(): void {
    this.#closed = true;
    if (this.#running) this.#signal("SIGKILL");
  }

  async logTail(lines = 30): Promise<string> {
    const text = await Deno.readTextFile(this.logPath).catch(() => "(no log)");
    return text.trimEnd().split("\n").slice(-lines).join("\n");
  }

  #signal(signal: Deno.Signal): void {
    try {
      this.#child?.kill(signal);
    } catch { /* already exited */ }
  }

  async #waitExit(graceMs: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), graceMs);
    });
    try {
      if (await Promise.race([this.#exited, late]) === "late") {
        this.#signal("SIGKILL");
        await this.#exited;
      }
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Polls `ready` for each member until all pass; fails early, with the logs, if one exits. */
async function waitFor(
  members: Member[],
  deadline: number,
  ready: (member: Member) => Promise<unknown>,
): Promise<void> {
  let waiting = members;
  while (waiting.length > 0) {
    const dead = waiting.find((m) => !m.running);
    const names = waiting.map((m) => m.name).join(", ");
    const failure = dead !== undefined
      ? `etcd member ${dead.name} exited during startup`
      : Date.now() > deadline
      ? `etcd members ${names} not ready before the start timeout`
      : undefined;
    if (failure !== undefined) {
      const tails = await Promise.all(
        members.map(async (m) => `--- ${m.name}:\n${await m.logTail()}`),
      );
      throw new Error(`${failure}\n${tails.join("\n")}`);
    }
    const passed = await Promise.all(waiting.map(ready));
    waiting = waiting.filter((_, i) => !passed[i]);
    if (waiting.length > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function isHealthy(port: number, host: string): Promise<boolean> {
  return /"health"\s*:\s*"true"/.test(await httpGet(port, "/health", 500, host) ?? "");
}

function findOnPath(name: string): string | undefined {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    if (dir === "") continue;
    try {
      const path = `${dir}/${name}`;
      if (Deno.statSync(path).isFile) return path;
    } catch { /* not here */ }
  }
  return undefined;
}

/** At exit, for processes whose `close()` never ran (setpriv covers crashes). */
function killLeftovers(): void {
  for (const cluster of live) for (const member of cluster.members) member.killSync();
}

/**
 * Removes the data dirs of test processes that died before `close()` (a crash
 * or Ctrl-C): each holds a preallocated 64 MB WAL. A dir is only removed when
 * the pid in its `owner.pid` no longer runs.
 */
async function sweepStaleDirs(tmp: string): Promise<void> {
  if (!(await Deno.stat("/proc/self").then(() => true, () => false))) return;
  try {
    for await (const entry of Deno.readDir(tmp)) {
      if (!entry.isDirectory || !entry.name.startsWith("etcd-test-")) continue;
      const dir = `${tmp}/${entry.name}`;
      const pid = Number(await Deno.readTextFile(`${dir}/owner.pid`).catch(() => ""));
      if (!Number.isInteger(pid) || pid <= 0) continue;
      const alive = await Deno.stat(`/proc/${pid}`).then(() => true, () => false);
      if (!alive) await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  } catch { /* best effort */ }
}
