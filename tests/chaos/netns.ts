/**
 * A private network of Linux network namespaces for the chaos harness: a
 * bridge in the root namespace with address `10.231.S.1/24` and, per node, a
 * namespace joined to it by a veth pair, with address `10.231.S.<host>`. The
 * addresses exist only on links this module made, so traffic to them never
 * leaves the machine. Processes run inside a node with
 * {@linkcode NetLab.command}; packet filters come from `nft.ts`.
 *
 * Everything a lab makes carries its run's prefix `smc-<8 hex>` (namespaces)
 * or `smc<8 hex>` (links, whose names are at most 15 characters), and the
 * owner's pid is kept in `/run/smc-chaos/<8 hex>.pid` before anything is made.
 * {@linkcode NetLab.close} removes it all; so does SIGINT or SIGTERM of the
 * harness, and the next {@linkcode NetLab.create} removes what a harness that
 * crashed left behind ({@linkcode sweepStaleNetworks}).
 *
 * @module
 */

/** The directory of the owners' pid files. */
export const PID_DIR = "/run/smc-chaos";

/** One namespace of a {@linkcode NetLab}. */
export interface NetNode {
  /** The node's name in the lab, e.g. `"etcd-0"`. */
  readonly name: string;
  /** The namespace's name, e.g. `"smc-1a2b3c4d-etcd-0"`. */
  readonly netns: string;
  /** The node's IPv4 address. */
  readonly address: string;
}

/** Why namespaces cannot be made here, or undefined when they can. */
export async function netnsUnsupported(): Promise<string | undefined> {
  if (Deno.build.os !== "linux") return `network namespaces need Linux, not ${Deno.build.os}`;
  if (Deno.uid() !== 0) return `network namespaces need root (uid is ${Deno.uid()})`;
  for (const [tool, pkg] of [["ip", "iproute2"], ["nft", "nftables"]] as const) {
    const found = await run(["sh", "-c", `command -v ${tool}`]).then(() => true, () => false);
    if (!found) return `${tool} is not installed (Debian package ${pkg})`;
  }
  return undefined;
}

/** A running private network; see the module doc. */
export class NetLab implements AsyncDisposable {
  /** The run id, 8 hex digits. */
  readonly id: string;
  /** The bridge's address: how nodes reach the root namespace (and its TCP proxies). */
  readonly gateway: string;
  readonly #subnet: string;
  readonly #nodes: NetNode[] = [];
  readonly #onSignal = () => {
    this.closeSync();
    Deno.exit(130);
  };
  readonly #onUnload = () => this.closeSync();
  #closed = false;

  private constructor(id: string, subnet: string) {
    this.id = id;
    this.#subnet = subnet;
    this.gateway = `${subnet}.1`;
  }

  /**
   * Removes stale leftovers, then makes the bridge. Throws when namespaces
   * cannot be made here ({@linkcode netnsUnsupported} says why).
   *
   * @example
   * ```ts ignore
   * // As root, with iproute2 and nftables:
   * import { NetLab } from "./netns.ts";
   *
   * await using lab = await NetLab.create();
   * const node = await lab.addNode("etcd-0", 10);
   * const command = lab.command(node, ["etcd", `--listen-client-urls=http://${node.address}:2379`]);
   * ```
   */
  static async create(): Promise<NetLab> {
    const unsupported = await netnsUnsupported();
    if (unsupported !== undefined) {
      throw new Error(`Cannot make network namespaces: ${unsupported}`);
    }
    await sweepStaleNetworks();
    const id = crypto.randomUUID().replaceAll("-", "").slice(0, 8);
    await Deno.mkdir(PID_DIR, { recursive: true });
    await Deno.writeTextFile(`${PID_DIR}/${id}.pid`, `${Deno.pid}\n`);
    const lab = new NetLab(id, `10.231.${await freeSubnet()}`);
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      Deno.addSignalListener(signal, lab.#onSignal);
    }
    addEventListener("unload", lab.#onUnload);
    try {
      await run(["ip", "link", "add", lab.#bridge, "type", "bridge"]);
      await run(["ip", "addr", "add", `${lab.gateway}/24`, "dev", lab.#bridge]);
      await run(["ip", "link", "set", lab.#bridge, "up"]);
    } catch (error) {
      await lab.close();
      throw error;
    }
    return lab;
  }

  get #bridge(): string {
    return `smc${this.id}b`;
  }

  /** The nodes made so far. */
  get nodes(): readonly NetNode[] {
    return this.#nodes;
  }

  /** Makes a namespace with address `10.231.S.<host>` (host 2..254), joined to the bridge. */
  async addNode(name: string, host: number): Promise<NetNode> {
    if (!/^[a-z0-9-]{1,20}$/.test(name)) {
      throw new TypeError(`A node name must be 1-20 of [a-z0-9-], got ${JSON.stringify(name)}`);
    }
    if (!Number.isInteger(host) || host < 2 || host > 254) {
      throw new RangeError(`host must be an integer from 2 to 254, got ${host}`);
    }
    const node: NetNode = {
      name,
      netns: `smc-${this.id}-${name}`,
      address: `${this.#subnet}.${host}`,
    };
    if (this.#nodes.some((n) => n.name === name || n.address === node.address)) {
      throw new RangeError(`Node ${name} or address ${node.address} already exists`);
    }
    const veth = `smc${this.id}v${host}`;
    const inNs = (...args: string[]) => run(["ip", "-n", node.netns, ...args]);
    await run(["ip", "netns", "add", node.netns]);
    this.#nodes.push(node);
    await run([
      "ip",
      "link",
      "add",
      veth,
      "type",
      "veth",
      "peer",
      "name",
      "eth0",
      "netns",
      node.netns,
    ]);
    await run(["ip", "link", "set", veth, "master", this.#bridge, "up"]);
    await inNs("addr", "add", `${node.address}/24`, "dev", "eth0");
    await inNs("link", "set", "eth0", "up");
    await inNs("link", "set", "lo", "up");
    return node;
  }

  /** `command` run inside `node`'s namespace (`ip netns exec`, which execs it: same pid). */
  command(node: NetNode, command: readonly string[]): string[] {
    return ["ip", "netns", "exec", node.netns, ...command];
  }

  /** Removes every namespace and link of this lab (processes inside should have stopped). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#unlisten();
    await removeRun(this.id);
  }

  /** {@linkcode close} without awaiting: for a signal handler or `unload`. */
  closeSync(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#unlisten();
    removeRunSync(this.id, listSync());
  }

  #unlisten(): void {
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      Deno.removeSignalListener(signal, this.#onSignal);
    }
    removeEventListener("unload", this.#onUnload);
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * Removes the namespaces, links and pid files of labs whose owner process is
 * gone (a harness that crashed or was SIGKILLed). Returns the run ids removed.
 */
export async function sweepStaleNetworks(): Promise<string[]> {
  const ids = new Set<string>();
  const { netns, links } = listSync();
  for (const name of [...netns, ...links]) {
    const id = /^smc-?([0-9a-f]{8})/.exec(name)?.[1];
    if (id !== undefined) ids.add(id);
  }
  try {
    for await (const entry of Deno.readDir(PID_DIR)) {
      const id = /^([0-9a-f]{8})\.pid$/.exec(entry.name)?.[1];
      if (id !== undefined) ids.add(id);
    }
  } catch { /* no pid dir yet */ }
  const removed: string[] = [];
  for (const id of ids) {
    const pid = Number(await Deno.readTextFile(`${PID_DIR}/${id}.pid`).catch(() => ""));
    const alive = Number.isInteger(pid) && pid > 0 &&
      await Deno.stat(`/proc/${pid}`).then(() => true, () => false);
    if (alive) continue;
    await removeRun(id);
    removed.push(id);
  }
  return removed;
}

async function removeRun(id: string): Promise<void> {
  removeRunSync(id, listSync());
  await Deno.remove(`${PID_DIR}/${id}.pid`).catch(() => {});
}

function removeRunSync(id: string, found: { netns: string[]; links: string[] }): void {
  // Deleting a namespace deletes its veth pair; the bridge goes by name.
  for (const ns of found.netns.filter((n) => n.startsWith(`smc-${id}-`))) {
    runSync(["ip", "netns", "del", ns]);
  }
  for (const link of found.links.filter((l) => l.startsWith(`smc${id}`))) {
    runSync(["ip", "link", "del", link]);
  }
  try {
    Deno.removeSync(`${PID_DIR}/${id}.pid`);
  } catch { /* already gone */ }
}

function listSync(): { netns: string[]; links: string[] } {
  const netns = runSync(["ip", "netns", "list"]).split("\n")
    .map((l) => l.split(" ")[0] ?? "").filter((n) => n.startsWith("smc-"));
  const links = runSync(["ip", "-o", "link", "show"]).split("\n")
    .map((l) => /^\d+:\s+([^:@\s]+)/.exec(l)?.[1] ?? "").filter((n) => n.startsWith("smc"));
  return { netns, links };
}

/** A third octet no link on this machine uses yet (10.231.S.0/24). */
async function freeSubnet(): Promise<number> {
  const used = await run(["ip", "-4", "-o", "addr", "show"]);
  for (let attempt = 0; attempt < 100; attempt++) {
    const s = 1 + Math.floor(Math.random() * 254);
    if (!used.includes(` 10.231.${s}.`)) return s;
  }
  throw new Error("No free 10.231.S.0/24 subnet found");
}

async function run(command: readonly string[]): Promise<string> {
  const [cmd, ...args] = command;
  const { success, stdout, stderr } = await new Deno.Command(cmd!, {
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!success) {
    throw new Error(`${command.join(" ")} failed: ${new TextDecoder().decode(stderr).trim()}`);
  }
  return new TextDecoder().decode(stdout);
}

function runSync(command: readonly string[]): string {
  const [cmd, ...args] = command;
  try {
    const { stdout } = new Deno.Command(cmd!, {
      args,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    return new TextDecoder().decode(stdout);
  } catch {
    return "";
  }
}
