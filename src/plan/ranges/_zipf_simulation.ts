/**
 * A simulated key-range workload for tests and benchmarks: keys with
 * Zipf-distributed load, measured per slice (exact load and a Space-Saving
 * sketch of the top keys, as executors will report them), planned pass after
 * pass. Private to the range planner.
 *
 * @module
 */
import { hashKeyInto } from "../../shared/key_hash.ts";
import type { RangeSettings } from "../../config/range_settings.ts";
import { SliceMap } from "../../core/slices.ts";
import { SpaceSaving } from "../../shared/space_saving.ts";
import { planRanges } from "./plan_ranges.ts";
import { topKeysOf } from "./top_keys.ts";
import type { RangeExecutor, RangeSliceState } from "./types.ts";

/** What one pass of the simulation did and reached. */
export interface PassFigures {
  /** True hottest executor load over the mean, after the pass. */
  readonly maxOverMean: number;
  readonly slices: number;
  readonly moves: number;
  readonly splits: number;
  readonly merges: number;
  readonly isolations: number;
  /** Share of the line whose owners were replaced by moves. */
  readonly keyspaceMoved: number;
  readonly slicesPerExecutor: { readonly min: number; readonly max: number };
  /** Time the planner took (not the measuring), ms. */
  readonly planMs: number;
}

/** A Zipf workload over `keys` keys with exponent `s`, on `executors` executors. */
export class ZipfSimulation {
  readonly keys: readonly string[];
  readonly loads: Float64Array;
  readonly executors: readonly RangeExecutor[];
  readonly #settings: RangeSettings;
  readonly #points: Uint32Array;
  #slices: readonly RangeSliceState[] = [];
  #nextId = 0;

  constructor(options: { keys: number; s: number; executors: number; settings: RangeSettings }) {
    this.keys = Array.from({ length: options.keys }, (_, i) => `key-${i}`);
    // Each key's point, hashed once: a pass only looks the points up.
    this.#points = new Uint32Array(2 * options.keys);
    const out = new Uint32Array(2);
    for (let i = 0; i < options.keys; i++) {
      hashKeyInto(this.keys[i]!, out);
      this.#points[2 * i] = out[0]!;
      this.#points[2 * i + 1] = out[1]!;
    }
    this.loads = new Float64Array(options.keys);
    for (let i = 0; i < options.keys; i++) this.loads[i] = 1e6 / Math.pow(i + 1, options.s);
    this.executors = Array.from({ length: options.executors }, (_, i) => ({
      id: `e${String(i).padStart(3, "0")}`,
      zone: `z${i % 3}`,
    }));
    this.#settings = options.settings;
  }

  /** The slices with their owners as of the last pass. */
  get slices(): readonly RangeSliceState[] {
    return this.#slices;
  }

  /** Measures each slice's load and sketch from the keys' current loads. */
  #measure(): RangeSliceState[] {
    const map = SliceMap.from(this.#slices.map((s) => s.slice), this.#nextId);
    const loads = new Float64Array(map.size);
    const sketches = this.#slices.map(() => new SpaceSaving(this.#settings.sketchSize));
    const points = this.#points;
    for (let i = 0; i < this.keys.length; i++) {
      const at = map.indexOfHalves(points[2 * i]!, points[2 * i + 1]!);
      loads[at]! += this.loads[i]!;
      sketches[at]!.offer(this.keys[i]!, this.loads[i]!);
    }
    return this.#slices.map((s, i) => ({
      ...s,
      load: loads[i]!,
      topKeys: topKeysOf(sketches[i]!),
    }));
  }

  /** True load over the mean of the hottest executor for the current slices and key loads. */
  trueMaxOverMean(): number {
    const perExecutor = new Map<string, number>();
    let total = 0;
    for (const s of this.#measure()) {
      total += s.load;
      for (const o of s.owners) {
        perExecutor.set(o, (perExecutor.get(o) ?? 0) + s.load / s.owners.length);
      }
    }
    const max = Math.max(0, ...perExecutor.values());
    return total > 0 ? max / (total / this.executors.length) : 1;
  }

  /** Runs one pass on measured loads and returns its figures. */
  pass(): PassFigures {
    const slices = this.#slices.length === 0 ? [] : this.#measure();
    const started = performance.now();
    const plan = planRanges(
      { slices, nextSliceId: this.#nextId, executors: this.executors, ownership: "available" },
      this.#settings,
    );
    const planMs = performance.now() - started;
    this.#slices = plan.slices;
    this.#nextId = plan.nextSliceId;
    return {
      maxOverMean: this.trueMaxOverMean(),
      slices: plan.slices.length,
      moves: plan.moves.length,
      splits: plan.splits.length,
      merges: plan.merges.length,
      isolations: plan.isolations.length,
      keyspaceMoved: plan.keyspaceMoved,
      slicesPerExecutor: plan.slicesPerExecutor,
      planMs,
    };
  }
}
