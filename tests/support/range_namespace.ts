/**
 * The key-range namespace the range integration tests run: one `type: range`
 * namespace, `keys`, cut into 8 slices at first and aiming at 4 slices per
 * executor (1 to 32), served by an in-process instance on a real etcd.
 *
 * @module
 */
import type { RunningInstance } from "../../src/app.ts";
import { Executor, type ShardContext } from "../../src/client/executor/mod.ts";
import { type Etcd, uniquePrefix } from "./etcd.ts";
import { startInProcess, testConfigYaml } from "./service.ts";

/** The range namespace's name. */
export const RANGE_NAMESPACE = "keys";

/** Options of {@linkcode startRangeInstance}. */
export interface RangeInstanceOptions {
  /** More `range:` settings, over the slice counts above. @default {{}} */
  readonly range?: Record<string, unknown>;
  /** The instance's id. @default {undefined} the service's own */
  readonly instanceId?: string;
  /** `ownership: exclusive`. @default {false} available */
  readonly exclusive?: boolean;
}

/**
 * Starts an instance in process that serves {@linkcode RANGE_NAMESPACE} from
 * `etcd`, under a key prefix unique to `testName`. Stop the instance before
 * the etcd.
 *
 * @example
 * ```ts ignore
 * import { startEtcd } from "./etcd.ts";
 * import { startRangeInstance } from "./range_namespace.ts";
 *
 * await using etcd = await startEtcd();
 * const instance = await startRangeInstance(etcd, "range example", { range: { churnBudget: 0 } });
 * await instance.stop();
 * ```
 */
export function startRangeInstance(
  etcd: Pick<Etcd, "endpoints">,
  testName: string,
  options: RangeInstanceOptions = {},
): Promise<RunningInstance> {
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix(testName),
    namespaces: [{
      name: RANGE_NAMESPACE,
      type: "range",
      range: {
        initialSlices: 8,
        slicesPerExecutor: { target: 4, min: 1, max: 32 },
        ...options.range,
      },
      ...(options.exclusive ? { ownership: "exclusive" } : {}),
    }],
  });
  return startInProcess(yaml, options.instanceId);
}

/** Each SDK executor's running slices: executor id → shard key → the processor's context. */
export type RunningSlices = Map<string, Map<string, ShardContext>>;

/**
 * Starts an SDK executor `id` of {@linkcode RANGE_NAMESPACE} at `address`
 * (heartbeat every 200 ms, metadata `zone: id`) whose processors record
 * themselves in `running` while they run.
 *
 * @example
 * ```ts ignore
 * const running: RunningSlices = new Map();
 * const executor = startSliceExecutor(instance.server.address, "a", running);
 * await executor.shutdown();
 * ```
 */
export function startSliceExecutor(address: string, id: string, running: RunningSlices): Executor {
  const slices = new Map<string, ShardContext>();
  running.set(id, slices);
  const executor = new Executor({
    addresses: address,
    namespace: RANGE_NAMESPACE,
    executorId: id,
    metadata: { zone: id },
    heartbeatIntervalMs: 200,
    processor: (ctx) => {
      slices.set(ctx.shardKey, ctx);
      return { stop: () => void slices.delete(ctx.shardKey) };
    },
  });
  void executor.start();
  return executor;
}
