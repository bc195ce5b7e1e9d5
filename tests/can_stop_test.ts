/**
 * "Ask before you stop" (issue 41) against real etcd and gRPC: CanStopExecutors
 * answers from the drains' own disruption budget, so a drain of the same
 * executors is refused exactly when it says they must wait (with executors
 * drained, leaving and gone); per namespace and overall for an executor in
 * two namespaces; warm handovers in flight are reported; smctl's exit codes
 * and -o json; and deploy/can-stop.sh, polled until allowed, with its exit codes.
 */
import assert from "node:assert/strict";
import type {
  CanStopExecutorsRequest,
  CanStopExecutorsResponse__Output,
} from "../src/wire/proto.ts";
import { call, type Clients, grpc } from "./support/grpc_clients.ts";
import { eventually, runExecutors, type SimExecutor } from "./support/executors.ts";
import { withService } from "./support/with_service.ts";
import { json, smctl, smctlCommand } from "./support/smctl.ts";
import { runWarmExecutor, type WarmExecutor } from "./support/warm_executors.ts";

const SCRIPT = new URL("../deploy/can-stop.sh", import.meta.url).pathname;

const ZONES: Record<string, string> = { a: "z1", b: "z1", c: "z2", d: "z3", e: "z3", f: "z3" };

function canStop(
  clients: Clients,
  request: CanStopExecutorsRequest,
): Promise<CanStopExecutorsResponse__Output> {
  return call(clients.api, "canStopExecutors", request);
}

/**
 * Asks CanStopExecutors and a dry-run drain about the same executors of `ns`
 * and checks they agree; returns the can-stop answer.
 */
async function agree(
  clients: Clients,
  ns: string,
  target: { readonly executorId: string } | { readonly selector: Record<string, string> },
): Promise<CanStopExecutorsResponse__Output> {
  const answer = await canStop(clients, {
    namespace: ns,
    ...("selector" in target
      ? { selector: target.selector }
      : { executorIds: [target.executorId] }),
  });
  let refusal: string | undefined;
  try {
    await call(clients.api, "drainExecutors", { namespace: ns, ...target, dryRun: true });
  } catch (error) {
    const failure = error as grpc.ServiceError;
    assert.equal(failure.code, grpc.status.FAILED_PRECONDITION, failure.message);
    refusal = failure.details;
  }
  const verdict = answer.namespaces.find((n) => n.namespace === ns);
  assert.ok(verdict, `the answer has namespace ${ns}`);
  const what = JSON.stringify(target);
  assert.equal(verdict.allowed, refusal === undefined, `${what}: can-stop ${verdict.reason}`);
  assert.equal(answer.allowed, verdict.allowed, what);
  if (refusal !== undefined) {
    assert.ok(refusal.includes(verdict.reason.replace(/^Refused: /, "")), `${refusal} / ${what}`);
  }
  return answer;
}

/** A namespace where a warm handover stays in flight. */
const WARM = [{
  name: "warm",
  type: "fixed",
  shardNum: 4,
  settleWindow: "0s",
  shardCooldown: "0s",
  minImprovement: 0,
  prepareTimeout: "60s",
}];

/** The namespaces most tests here use: an available one and an exclusive one. */
const NAMESPACES = [
  { name: "ns", type: "fixed", shardNum: 12 },
  { name: "two", type: "fixed", shardNum: 4, ownership: "exclusive" },
];

function start(clients: Clients, ns: string, ids: readonly string[]): SimExecutor[] {
  return runExecutors(clients, ns, ids, {
    intervalMs: 200,
    metadata: (id) => ({ zone: ZONES[id] ?? "z9", address: `${id}.example:1234` }),
  });
}

Deno.test("a drain is refused exactly when can-stop says the same executors must wait", async () => {
  await withService("can-stop", NAMESPACES, async (clients) => {
    const executors = start(clients, "ns", ["a", "b", "c", "d", "e", "f"]);
    try {
      await eventually(() => executors.every((e) => e.shards.length > 0), 15_000, "shards");
      // 6 live, maxDrainedShare 50%: up to 3 may be out.
      for (const zone of ["z1", "z2", "z3"]) {
        assert.equal((await agree(clients, "ns", { selector: { zone } })).allowed, true, zone);
      }
      await call(clients.api, "drainExecutors", { namespace: "ns", selector: { zone: "z1" } });
      // a, b out: c alone fits (3 of 6), z3 (5 of 6) does not.
      assert.equal((await agree(clients, "ns", { selector: { zone: "z2" } })).allowed, true);
      const z3 = await agree(clients, "ns", { selector: { zone: "z3" } });
      assert.equal(z3.allowed, false);
      assert.deepEqual(z3.executorIds, ["d", "e", "f"]);
      assert.deepEqual(z3.mayStopExecutorIds, ["d"]);
      assert.deepEqual(z3.mustWaitExecutorIds, ["e", "f"]);
      assert.match(z3.namespaces[0]!.reason, /5 of 6 live executors/);
      // c shuts down (DRAINING): it is out until it has left, so d no longer fits.
      const c = executors.find((e) => e.id === "c")!;
      c.status = "EXECUTOR_STATUS_DRAINING";
      await eventually(
        async () => {
          const answer = await canStop(clients, { namespace: "ns", executorIds: ["c"] });
          return answer.namespaces[0]?.executors[0]?.leaving === true;
        },
        10_000,
        "c leaving",
      );
      const d = await agree(clients, "ns", { executorId: "d" });
      assert.equal(d.allowed, false);
      assert.equal(d.namespaces[0]!.outBefore, 3);
      assert.equal((await agree(clients, "ns", { executorId: "c" })).allowed, true);
      // c has handed everything over and reports DRAINED: it has left and counts no more.
      await eventually(() => c.shards.length === 0, 10_000, "c empty");
      c.status = "EXECUTOR_STATUS_DRAINED";
      await eventually(
        async () => {
          const answer = await canStop(clients, { namespace: "ns", executorIds: ["d"] });
          return answer.namespaces[0]?.liveExecutors === 5;
        },
        10_000,
        "c gone from the live count",
      );
      // 5 live, a and b out: d makes 3 of 5 (60%), over 50%.
      assert.equal((await agree(clients, "ns", { executorId: "d" })).allowed, false);
    } finally {
      for (const e of executors) await e.stop();
    }
  });
});

Deno.test("can-stop answers per namespace and overall for an executor in two namespaces", async () => {
  await withService("can-stop", NAMESPACES, async (clients) => {
    const ns = start(clients, "ns", ["a", "b", "c", "d"]);
    const two = start(clients, "two", ["a", "x"]);
    try {
      await eventually(() => ns.every((e) => e.shards.length > 0), 15_000, "ns placed");
      await eventually(
        async () => {
          const answer = await canStop(clients, { executorIds: ["a", "x"] });
          return answer.namespaces.find((n) => n.namespace === "two")?.liveExecutors === 2;
        },
        15_000,
        "both executors of two known",
      );
      const answer = await canStop(clients, { executorIds: ["a", "b", "ghost"] });
      // In "two", a is one of 2 live executors (50%, allowed); together with b in "ns" 2 of 4.
      assert.equal(answer.allowed, true);
      assert.deepEqual(answer.unknownExecutorIds, ["ghost"]);
      assert.deepEqual(answer.namespaces.map((n) => n.namespace), ["ns", "two"]);
      assert.equal(answer.namespaces[1]!.exclusive, true);
      // a and x together would leave "two" with no eligible owner; x is in "two" only.
      const both = await canStop(clients, { executorIds: ["a", "x"] });
      assert.equal(both.allowed, false);
      const twoVerdict = both.namespaces.find((n) => n.namespace === "two")!;
      assert.equal(twoVerdict.allowed, false);
      assert.equal(both.namespaces.find((n) => n.namespace === "ns")!.allowed, true);
      assert.deepEqual(both.mayStopExecutorIds, ["a"]);
      assert.deepEqual(both.mustWaitExecutorIds, ["x"]);
      assert.match(twoVerdict.reason, /no eligible owner|2 of 2 live executors/);
      // Asking in "ns" only: x is not there.
      const nsOnly = await canStop(clients, { namespace: "ns", executorIds: ["a", "x"] });
      assert.equal(nsOnly.allowed, true);
      assert.deepEqual(nsOnly.unknownExecutorIds, ["x"]);
      // Bad requests are refused with a clear message, never a crash.
      const bad: [CanStopExecutorsRequest, RegExp][] = [
        [{ executorIds: [] }, /give executor ids or a selector/],
        [{ executorIds: ["a"], selector: { zone: "z1" } }, /not both/],
        [{ namespace: "nope", executorIds: ["a"] }, /nope/],
        [{ executorIds: [""] }, /executor_ids\[0\]/],
      ];
      for (const [request, pattern] of bad) {
        await assert.rejects(canStop(clients, request), pattern);
      }
    } finally {
      for (const e of [...ns, ...two]) await e.stop();
    }
  });
});

Deno.test("can-stop reports warm handovers still in flight away from an executor", async () => {
  await withService("can-stop", WARM, async (clients) => {
    const warm: WarmExecutor[] = [];
    try {
      const a = runWarmExecutor(clients, "warm", "a");
      warm.push(a);
      await eventually(() => a.serving.length === 4, 10_000, "a serves all");
      // b never finishes a prepare: the shards moving to it stay on a, in flight.
      warm.push(runWarmExecutor(clients, "warm", "b", { prepareMs: Infinity }));
      await eventually(
        async () => {
          const answer = await canStop(clients, { namespace: "warm", executorIds: ["a"] });
          return (answer.namespaces[0]?.executors[0]?.pendingHandovers ?? 0) > 0;
        },
        10_000,
        "a's pending handovers",
      );
      const answer = await canStop(clients, { namespace: "warm", executorIds: ["a", "b"] });
      const [ra, rb] = answer.namespaces[0]!.executors;
      assert.equal(ra!.shards, 4);
      assert.equal(ra!.pendingHandovers, 2);
      assert.equal(rb!.shards, 0);
      assert.equal(rb!.pendingHandovers, 0);
      assert.equal(answer.allowed, false, "both would leave no eligible owner");
    } finally {
      for (const e of warm) await e.stop();
    }
  });
});

/** deploy/can-stop.sh running in the background, with its output so far. */
interface ScriptRun {
  stderr(): string;
  readonly finished: Promise<{ code: number; stdout: string; stderr: string }>;
}

function spawnScript(args: readonly string[], env: Record<string, string>): ScriptRun {
  const child = new Deno.Command("bash", {
    args: [SCRIPT, ...args],
    env: { SMCTL: smctlCommand([]).join(" "), ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let stdout = "";
  let stderr = "";
  const collect = async (stream: ReadableStream<Uint8Array>, add: (text: string) => void) => {
    for await (const text of stream.pipeThrough(new TextDecoderStream())) add(text);
  };
  const finished = Promise.all([
    collect(child.stdout, (t) => stdout += t),
    collect(child.stderr, (t) => stderr += t),
    child.status,
  ]).then(([, , status]) => ({ code: status.code, stdout, stderr }));
  return { stderr: () => stderr, finished };
}

function script(
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return spawnScript(args, env).finished;
}

Deno.test("smctl executor can-stop and deploy/can-stop.sh: exit codes, json, polling", async () => {
  await withService("can-stop", NAMESPACES, async (clients, instance) => {
    const address = instance.server.address;
    const executors = start(clients, "ns", ["a", "b", "c", "d"]);
    try {
      await eventually(() => executors.every((e) => e.shards.length > 0), 15_000, "shards");
      const ok = await smctl(["--address", address, "executor", "can-stop", "a", "b"]);
      assert.equal(ok.code, 0, ok.stderr);
      assert.match(ok.stdout, /All 2 executors may stop now/);
      const wait = await smctl([
        "--address",
        address,
        "executor",
        "can-stop",
        "--selector",
        "zone=z1",
        "-o",
        "json",
      ], { env: { SMCTL_NAMESPACE: "ns" } });
      assert.equal(wait.code, 0, wait.stderr);
      assert.deepEqual(json<{ mayStop: string[] }>(wait).mayStop, ["a", "b"]);
      const no = await smctl([
        "--address",
        address,
        "executor",
        "can-stop",
        "a",
        "b",
        "c",
        "-o",
        "json",
      ]);
      assert.equal(no.code, 7, no.stderr);
      const doc = json<{ allowed: boolean; mayStop: string[]; mustWait: string[] }>(no);
      assert.equal(doc.allowed, false);
      assert.deepEqual(doc.mayStop, ["a", "b"]);
      assert.deepEqual(doc.mustWait, ["c"]);
      assert.match(no.stderr, /1 of 3 executors must wait: c/);
      const usage = await smctl(["--address", address, "executor", "can-stop"]);
      assert.equal(usage.code, 2);
      const missing = await smctl([
        "--address",
        address,
        "-n",
        "nope",
        "executor",
        "can-stop",
        "a",
      ]);
      assert.equal(missing.code, 3, missing.stderr);

      const env = { SMCTL_ADDRESS: address };
      const allowed = await script(["a", "b"], env);
      assert.equal(allowed.code, 0, allowed.stderr);
      assert.deepEqual(allowed.stdout.trim().split("\n"), ["a", "b"]);
      const zone = await script(["-n", "ns", "--selector", "zone=z1"], env);
      assert.equal(zone.code, 0, zone.stderr);
      assert.deepEqual(zone.stdout.trim().split("\n"), ["a", "b"]);
      const any = await script(["--any", "a", "b", "c"], env);
      assert.equal(any.code, 0, any.stderr);
      assert.deepEqual(any.stdout.trim().split("\n"), ["a", "b"]);
      const late = await script(["--timeout", "1", "--interval", "0.3", "a", "b", "c"], env);
      assert.equal(late.code, 7, late.stderr);
      assert.match(late.stderr, /must wait: c/);
      assert.match(late.stderr, /gave up after/);
      assert.equal((await script(["--timeout", "soon", "a"], env)).code, 2);
      assert.equal((await script([], env)).code, 2);
      assert.equal((await script(["-n", "nope", "a"], env)).code, 3);

      // Polling: a drain holds a and b out; the script waits until it is lifted.
      await call(clients.api, "drainExecutors", { namespace: "ns", selector: { zone: "z1" } });
      const poll = spawnScript(["--interval", "0.3", "--timeout", "60", "c"], env);
      await eventually(() => /must wait: c/.test(poll.stderr()), 30_000, "the script waiting");
      await call(clients.api, "undrainExecutors", { namespace: "ns", selector: { zone: "z1" } });
      const polled = await poll.finished;
      assert.equal(polled.code, 0, polled.stderr);
      assert.match(polled.stderr, /must wait: c/);
      assert.match(polled.stderr, /may stop now: c \(asked \d+ times/);
      assert.equal(polled.stdout.trim(), "c");

      // --until-leaving: waits until the service has seen the executors stop.
      const d = executors.find((e) => e.id === "d")!;
      const notYet = await script(
        ["--until-leaving", "--timeout", "1", "--interval", "0.3", "d"],
        env,
      );
      assert.equal(notYet.code, 7, notYet.stderr);
      assert.match(notYet.stderr, /not seen leaving yet: d/);
      d.status = "EXECUTOR_STATUS_DRAINING";
      const seen = await script([
        "--until-leaving",
        "--interval",
        "0.3",
        "--timeout",
        "30",
        "d",
        "ghost",
      ], env);
      assert.equal(seen.code, 0, seen.stderr);
      assert.match(seen.stderr, /seen leaving or gone/);

      const down = await script(["--timeout", "1", "--interval", "0.3", "a"], {
        SMCTL_ADDRESS: "127.0.0.1:1",
      });
      assert.equal(down.code, 4, down.stderr);
    } finally {
      for (const e of executors) await e.stop();
    }
  });
});
