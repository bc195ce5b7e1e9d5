// deno-lint-ignore-file no-console -- the measured figure is printed for whoever runs the test
/**
 * The etcd change feed across an etcd restart: it says it lost its
 * connection, reconnects within about a second of etcd answering again (not
 * etcd3's default of up to 30 s), and resumes after the last revision it
 * delivered. The namespace cache counts as not following meanwhile.
 */
import assert from "node:assert/strict";
import { createEtcdClient } from "../src/store/etcd/client.ts";
import { NamespaceKeys } from "../src/store/etcd/keys.ts";
import { watchNamespace } from "../src/store/etcd/watch_namespace.ts";
import { startEtcdCluster, uniquePrefix } from "./support/etcd.ts";
import { eventually } from "./support/executors.ts";

Deno.test("the etcd change feed reports a lost connection and resumes within about a second of etcd's return", async () => {
  await using etcd = await startEtcdCluster(1);
  const client = createEtcdClient({ endpoints: etcd.endpoints, dialTimeoutMs: 1_000 });
  const stop = new AbortController();
  const keys = new NamespaceKeys(uniquePrefix("watch reconnect"), "ns");
  const seen: string[] = [];
  const connection: boolean[] = [];
  try {
    const head = await client.put(keys.executor("e0", "metadata")).value("{}");
    const feed = watchNamespace(client, keys, Number(head.header.revision), stop.signal, {
      onConnection: (connected) => connection.push(connected),
    });
    const reading = (async () => {
      for await (const batch of feed) {
        for (const event of batch.events) {
          if (event.type === "metadata") seen.push(event.executorId);
        }
      }
    })();
    await client.put(keys.executor("e1", "metadata")).value("{}");
    await eventually(() => seen.includes("e1"), 10_000, "e1 through the feed");

    await etcd.members[0]!.kill();
    await eventually(() => connection.at(-1) === false, 10_000, "the feed to report its loss");
    // Long enough for etcd3's default backoff to grow to tens of seconds.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    await etcd.members[0]!.start(); // resolves once etcd reports healthy
    const back = performance.now();
    const writer = createEtcdClient({ endpoints: etcd.endpoints, dialTimeoutMs: 1_000 });
    try {
      await writer.put(keys.executor("e2", "metadata")).value("{}");
    } finally {
      writer.close();
    }
    await eventually(
      () => seen.includes("e2"),
      4_000,
      () =>
        `e2 through the feed within 4 s of etcd's return (seen ${seen}, connection ${connection})`,
    );
    assert.equal(connection.at(-1), true, "the feed reports that it is connected again");
    assert.deepEqual(seen, ["e1", "e2"], "nothing lost, nothing twice");
    console.log(`resumed ${Math.round(performance.now() - back)} ms after etcd answered again`);
    stop.abort();
    await reading;
  } finally {
    stop.abort();
    client.close();
  }
});
