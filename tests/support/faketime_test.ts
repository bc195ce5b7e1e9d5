import assert from "node:assert/strict";
import { faketimeEnv, faketimeLibrary, stepClock, steppableClockEnv } from "./faketime.ts";

async function clocks(env: Record<string, string>, timerMs = 600) {
  const code = `
    const d0 = Date.now(), p0 = performance.now();
    await new Promise((r) => setTimeout(r, ${timerMs}));
    console.log(JSON.stringify({ d0, date: Date.now() - d0, perf: performance.now() - p0 }));`;
  const t0 = Date.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    env,
    stdout: "piped",
  }).output();
  const real = Date.now() - t0;
  const seen = JSON.parse(new TextDecoder().decode(out.stdout)) as Record<string, number>;
  return { ...seen, offset: seen.d0! - t0, real } as Record<string, number>;
}

Deno.test({
  name: "faketime shifts a Deno child's Date.now() by the offset, not its timers",
  ignore: faketimeLibrary() === undefined,
  async fn() {
    const ahead = await clocks(faketimeEnv("+30s"));
    assert.ok(ahead.offset! > 29_000 && ahead.offset! < 31_500, `offset ${ahead.offset}`);
    assert.ok(ahead.date! >= 590 && ahead.date! < 900, `a 600 ms timer took ${ahead.date} ms`);
    const behind = await clocks(faketimeEnv("-30s"));
    assert.ok(behind.offset! < -28_500 && behind.offset! > -30_500, `offset ${behind.offset}`);
  },
});

Deno.test({
  name: "a faketime rate speeds up Date.now(), performance.now() and timers alike",
  ignore: faketimeLibrary() === undefined,
  async fn() {
    const fast = await clocks(faketimeEnv("+0 x2"), 2_000);
    // A 2 s timer by the child's clocks passes in about 1 s of real time (plus start-up).
    assert.ok(fast.date! >= 1_990 && fast.perf! >= 1_990, JSON.stringify(fast));
    assert.ok(fast.real! < 1_900, `real ${fast.real} ms`);
  },
});

Deno.test("a faketime spec this harness does not use is refused", () => {
  assert.throws(() => faketimeEnv("@2020-01-01 00:00:00"), /got "@2020/);
  assert.throws(() => faketimeEnv(""), RangeError);
});

Deno.test({
  name: "a steppable clock steps a running Deno child's Date.now(), not its timers",
  ignore: faketimeLibrary() === undefined,
  async fn() {
    const file = await Deno.makeTempFile();
    const code = `
      const p0 = performance.now();
      let ticks = 0;
      const id = setInterval(() => {
        console.log(JSON.stringify({ t: performance.now() - p0, now: Date.now(), tick: ++ticks }));
        if (ticks === 10) clearInterval(id);
      }, 300);`;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["eval", code],
      env: steppableClockEnv(file),
      stdout: "piped",
    }).spawn();
    const stepped = new Promise((resolve) => setTimeout(resolve, 1_000)).then(() =>
      stepClock(file, "-30s")
    );
    const lines = new TextDecoder().decode((await child.output()).stdout).trim().split("\n");
    await stepped;
    await Deno.remove(file);
    const samples = lines.map((l) => JSON.parse(l) as { t: number; now: number; tick: number });
    assert.equal(samples.length, 10);
    // Timers keep their pace: 10 ticks of 300 ms take about 3 s of monotonic time.
    assert.ok(samples.at(-1)!.t > 2_900 && samples.at(-1)!.t < 3_600, `${samples.at(-1)!.t}`);
    // The wall clock jumped back about 30 s once, between two ticks.
    const jumps = samples.slice(1).map((s, i) => s.now - samples[i]!.now);
    assert.equal(jumps.filter((j) => j < -25_000).length, 1, JSON.stringify(jumps));
  },
});
