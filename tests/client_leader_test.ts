import assert from "node:assert/strict";
import { LeaderSelector, leaderSelector } from "../src/client/leader/mod.ts";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { eventually } from "./support/executors.ts";
import { connect, executorsSeen } from "./support/grpc_clients.ts";
import { type SdkProcess, startSdkProcess } from "./support/sdk_process.ts";
import { startInProcess, startProcess, testConfigYaml } from "./support/service.ts";

const NAMESPACE = { name: "leader", type: "fixed", shardNum: 1 };

/** A term of leadership, in wall-clock ms (comparable with child processes). */
interface Term {
  node: string;
  token: string;
  start: number;
  end?: number;
}

/** Records every term of every node, in process and in child processes. */
class Terms {
  readonly local: Term[] = [];
  readonly children = new Map<string, SdkProcess>();

  /** A selector in this process; `returnAfterMs` makes takeLeadership return early. */
  start(address: string | string[], node: string, returnAfterMs?: number): LeaderSelector {
    return leaderSelector({
      addresses: address,
      namespace: "leader",
      name: node,
      autoRequeue: true,
      takeLeadership: async (signal, lease) => {
        const term: Term = { node, token: lease.fencingToken, start: Date.now() };
        this.local.push(term);
        await new Promise<void>((resolve) => {
          signal.addEventListener("abort", () => resolve(), { once: true });
          if (returnAfterMs !== undefined) setTimeout(resolve, returnAfterMs); // leads that long
        });
        term.end = Date.now();
      },
    });
  }

  all(): Term[] {
    const terms = [...this.local];
    for (const [node, child] of this.children) {
      for (const e of child.events) {
        if (e.event === "leading") terms.push({ node, token: e.token!, start: e.at });
        if (e.event === "not-leading") terms.at(-1)!.end = e.at;
      }
    }
    return terms.sort((a, b) => a.start - b.start);
  }

  leaders(): string[] {
    return this.all().filter((t) => t.end === undefined).map((t) => t.node);
  }

  /** At most one leader at any time, and tokens grow with every new leader. */
  assertExclusive(): void {
    const terms = this.all();
    for (let i = 1; i < terms.length; i++) {
      const [prev, next] = [terms[i - 1]!, terms[i]!];
      assert.ok(
        prev.end !== undefined && prev.end <= next.start,
        `overlap: ${JSON.stringify(terms)}`,
      );
      if (prev.node !== next.node) {
        assert.ok(BigInt(next.token) > BigInt(prev.token), `token: ${JSON.stringify(terms)}`);
      }
    }
  }
}

/** Resolves once the service at `address` has recorded every selector of `nodes` as a candidate. */
async function candidates(address: string, nodes: readonly LeaderSelector[]): Promise<void> {
  const clients = connect(address);
  try {
    await eventually(
      async () => {
        const seen = await executorsSeen(clients, NAMESPACE.name);
        return nodes.every((s) => s.participantId !== undefined && seen.has(s.participantId));
      },
      5_000,
      "the service to record every candidate",
    );
  } finally {
    clients.close();
  }
}

async function service(name: string) {
  const etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix(name),
    namespaces: [NAMESPACE],
  });
  return { etcd, yaml };
}

Deno.test("among three selectors exactly one leads; closing the leader hands over", async () => {
  const { etcd, yaml } = await service("leader-close");
  const instance = await startInProcess(yaml);
  const terms = new Terms();
  const address = instance.server.address;
  const nodes = new Map(["a", "b", "c"].map((n) => [n, terms.start(address, n)]));
  try {
    await eventually(() => terms.leaders().length === 1, 10_000, "a leader");
    for (let round = 0; round < 2; round++) {
      const leader = terms.leaders()[0]!;
      assert.equal([...nodes.values()].filter((s) => s.hasLeadership).length, 1);
      await nodes.get(leader)!.close();
      nodes.delete(leader);
      await eventually(
        () => terms.leaders().length === 1 && terms.leaders()[0] !== leader,
        5_000,
        "another leader",
      );
    }
    terms.assertExclusive();
    assert.equal(terms.all().length, 3);
  } finally {
    for (const s of nodes.values()) await s.close();
    await instance.stop();
    await etcd.close();
  }
});

Deno.test("a leader whose process is SIGKILLed is replaced after the heartbeat TTL", async () => {
  const { etcd, yaml } = await service("leader-kill");
  const instance = await startInProcess(yaml);
  const terms = new Terms();
  const address = instance.server.address;
  const child = await startSdkProcess("leader", {
    addresses: [address],
    namespace: "leader",
    name: "child",
  });
  terms.children.set("child", child);
  const nodes: LeaderSelector[] = [];
  try {
    await eventually(() => terms.leaders()[0] === "child", 10_000, "the child to lead");
    nodes.push(terms.start(address, "a"), terms.start(address, "b"));
    await candidates(address, nodes);
    await child.kill("SIGKILL");
    const killedAt = Date.now();
    const took = await eventually(
      () => nodes.some((s) => s.hasLeadership),
      10_000,
      "a new leader",
    );
    assert.ok(took < 6_000, `took ${Math.round(took)} ms`);
    const next = terms.local[0]!;
    assert.ok(next.start >= killedAt);
    const childToken = child.events.find((e) => e.event === "leading")!.token!;
    assert.ok(BigInt(next.token) > BigInt(childToken), "the fencing token grows");
  } finally {
    for (const s of nodes) await s.close();
    await child.kill();
    await instance.stop();
    await etcd.close();
  }
});

Deno.test("returning from takeLeadership hands over promptly, and autoRequeue rejoins", async () => {
  const { etcd, yaml } = await service("leader-return");
  const instance = await startInProcess(yaml);
  const terms = new Terms();
  const address = instance.server.address;
  const a = terms.start(address, "a", 1_000);
  const nodes = [a];
  try {
    await eventually(() => terms.leaders()[0] === "a", 10_000, "a to lead");
    const firstId = a.participantId;
    nodes.push(terms.start(address, "b"));
    await eventually(() => terms.all().length >= 2, 5_000, "a second term");
    const [first, second] = terms.all() as [Term, Term];
    assert.equal(second.node, "b", "another node took over");
    assert.ok(second.start - first.end! < 1_500, `gap ${second.start - first.end!} ms`);
    await eventually(
      () => a.participantId !== undefined && a.participantId !== firstId,
      5_000,
      "a to rejoin with a fresh id",
    );
    await nodes[1]!.close();
    await eventually(() => terms.leaders()[0] === "a", 5_000, "a to lead again");
    terms.assertExclusive();
  } finally {
    for (const s of nodes) await s.close();
    await instance.stop();
    await etcd.close();
  }
});

Deno.test("a leader cut off from the service suspends before another node leads", async () => {
  const { etcd, yaml } = await service("leader-suspend");
  const lost = await startProcess(yaml, "lost");
  const kept = await startInProcess(yaml, "kept");
  const terms = new Terms();
  const a = terms.start(lost.address, "a");
  const nodes = [a];
  try {
    await eventually(() => terms.leaders()[0] === "a", 10_000, "a to lead");
    nodes.push(terms.start(kept.server.address, "b"));
    await candidates(kept.server.address, [nodes[1]!]);
    await lost.kill("SIGKILL");
    await eventually(() => terms.leaders()[0] === "b", 15_000, "b to lead");
    terms.assertExclusive();
    const [first] = terms.all() as [Term];
    assert.ok(first.end !== undefined, "a's signal aborted");
  } finally {
    for (const s of nodes) await s.close();
    await lost.kill("SIGKILL");
    await kept.stop();
    await etcd.close();
  }
});

Deno.test("a selector refuses a namespace whose shardNum is not 1 at start, and never leads", async () => {
  const etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("leader-16"),
    namespaces: [{ name: "wide", type: "fixed", shardNum: 16 }],
  }));
  let led = false;
  const selector = new LeaderSelector({
    addresses: instance.server.address,
    namespace: "wide",
    takeLeadership: () => void (led = true),
  });
  try {
    const startedAt = Date.now();
    const error = await selector.start().catch((e) => e);
    assert.ok(Date.now() - startedAt < 2_000, `refused within 2 s, took ${Date.now() - startedAt}`);
    assert.equal(error.code, "INVALID_NAMESPACE");
    assert.match(
      error.message,
      /Namespace "wide" is fixed with shardNum 16: a leader selector needs a fixed namespace with shardNum: 1/,
    );
    assert.equal(led, false);
    assert.equal(selector.participantId, undefined, "it never joined");
  } finally {
    await selector.close();
    await instance.stop();
    await etcd.close();
  }
});
