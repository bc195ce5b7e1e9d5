import assert from "node:assert/strict";
import { denoBinary } from "../support/deno_bin.ts";
import { NetLab, netnsUnsupported, PID_DIR, sweepStaleNetworks } from "./netns.ts";
import { applyRules, clearRules, nftRuleset } from "./nft.ts";

const unsupported = await netnsUnsupported();
const ignore = unsupported !== undefined;
/** A test name that says why it was skipped. */
const named = (name: string) => ignore ? `${name} (skipped: ${unsupported})` : name;

/** Whether a TCP connect from inside `netns` to `host:port` succeeds within 700 ms. */
async function connects(lab: NetLab, netns: string, host: string, port: number) {
  const node = lab.nodes.find((n) => n.netns === netns)!;
  const script = `try {
    const c = await Deno.connect({ hostname: ${
    JSON.stringify(host)
  }, port: ${port}, signal: AbortSignal.timeout(700) });
    c.close(); console.log("ok");
  } catch { console.log("no"); }`;
  const [cmd, ...args] = lab.command(node, [denoBinary(), "eval", script]);
  const out = await new Deno.Command(cmd!, { args, stdout: "piped", stderr: "null" }).output();
  return new TextDecoder().decode(out.stdout).trim() === "ok";
}

function names(): string {
  const out = new Deno.Command("ip", { args: ["netns", "list"], stdout: "piped" }).outputSync();
  const links = new Deno.Command("ip", { args: ["-o", "link"], stdout: "piped" }).outputSync();
  return new TextDecoder().decode(out.stdout) + new TextDecoder().decode(links.stdout);
}

Deno.test("nft ruleset: a partition drops both ways, a loss one way, a share with numgen", () => {
  const script = nftRuleset([
    { kind: "partition", peers: ["10.231.1.10", "10.231.1.11"] },
    { kind: "drop-in", peers: ["10.231.1.1"], percent: 5 },
  ]);
  assert(script.includes("ip saddr { 10.231.1.10, 10.231.1.11 } drop"));
  assert(script.includes("ip daddr { 10.231.1.10, 10.231.1.11 } drop"));
  assert(script.includes("ip saddr { 10.231.1.1 } numgen random mod 100 < 5 drop"));
  assert.ok(!script.includes("ip daddr { 10.231.1.1 }"));
});

Deno.test({
  name: named(
    "a node reaches the gateway until a partition or one-way loss cuts it, and again after",
  ),
  ignore,
  async fn() {
    await using lab = await NetLab.create();
    const node = await lab.addNode("node-a", 10);
    const listener = Deno.listen({ hostname: lab.gateway, port: 0 });
    const accepting = (async () => {
      for await (const conn of listener) conn.close();
    })();
    const { port } = listener.addr;
    try {
      assert(await connects(lab, node.netns, lab.gateway, port), "connects before any rule");
      for (
        const rule of [
          { kind: "partition", peers: [lab.gateway] },
          { kind: "drop-out", peers: [lab.gateway] },
          { kind: "drop-in", peers: [lab.gateway] },
        ] as const
      ) {
        await applyRules(node.netns, [rule]);
        assert.ok(!await connects(lab, node.netns, lab.gateway, port), `cut by ${rule.kind}`);
      }
      await applyRules(node.netns, [{ kind: "drop-out", peers: [lab.gateway], percent: 1 }]);
      await clearRules(node.netns);
      assert(await connects(lab, node.netns, lab.gateway, port), "connects after clearRules");
    } finally {
      listener.close();
      await accepting.catch(() => {});
    }
    await lab.close();
    assert.ok(!names().includes(`smc-${lab.id}`), "namespaces removed by close");
    assert.ok(!names().includes(`smc${lab.id}`), "links removed by close");
  },
});

Deno.test({
  name: named("what a crashed harness left behind is removed by the next start"),
  ignore,
  async fn() {
    const module = new URL("./netns.ts", import.meta.url).href;
    const script = `import { NetLab } from ${JSON.stringify(module)};
      const lab = await NetLab.create(); await lab.addNode("crash", 20);
      console.log(lab.id); await new Promise(() => {});`;
    const child = new Deno.Command(denoBinary(), {
      args: ["eval", script],
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    const id = ((await reader.read()).value ?? "").trim();
    assert(/^[0-9a-f]{8}$/.test(id), `child printed its lab id, got ${JSON.stringify(id)}`);
    child.kill("SIGKILL"); // no cleanup runs
    await child.status;
    await reader.cancel();
    assert(names().includes(`smc-${id}-crash`), "the crashed lab's namespace is still there");
    assert(await Deno.stat(`${PID_DIR}/${id}.pid`).then(() => true, () => false));

    // The next harness's start sweeps it (NetLab.create calls sweepStaleNetworks first).
    const next = await NetLab.create();
    await next.close();
    assert.ok(!names().includes(`smc-${id}`));
    assert.ok(!names().includes(`smc${id}`));
    assert.equal(await Deno.stat(`${PID_DIR}/${id}.pid`).then(() => true, () => false), false);
  },
});

Deno.test({
  name: named("SIGTERM of a harness removes its namespaces before it exits"),
  ignore,
  async fn() {
    const module = new URL("./netns.ts", import.meta.url).href;
    const script = `import { NetLab } from ${JSON.stringify(module)};
      const lab = await NetLab.create(); await lab.addNode("term", 21);
      console.log(lab.id); await new Promise(() => {});`;
    const child = new Deno.Command(denoBinary(), {
      args: ["eval", script],
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    const id = ((await reader.read()).value ?? "").trim();
    assert(names().includes(`smc-${id}-term`));
    child.kill("SIGTERM");
    assert.equal((await child.status).code, 130);
    await reader.cancel();
    assert.ok(!names().includes(`smc-${id}`));
    assert.ok(!names().includes(`smc${id}`));
  },
});

Deno.test({
  name: named("the sweep leaves the networks of a harness that still runs"),
  ignore,
  async fn() {
    await using lab = await NetLab.create();
    await lab.addNode("alive", 22);
    const removed = await sweepStaleNetworks();
    assert.ok(!removed.includes(lab.id), `swept ${JSON.stringify(removed)}`);
    assert.ok(names().includes(`smc-${lab.id}-alive`));
  },
});
