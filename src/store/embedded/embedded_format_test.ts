import assert from "node:assert/strict";
import { openEmbeddedStores } from "./mod.ts";
import { NEWEST_STORE_FORMAT, StoreFormatError } from "../store_format.ts";

async function withDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "sm-embedded-format-" });
  try {
    await run(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function formatOf(dir: string): Promise<number> {
  const { store, leaderStore } = await openEmbeddedStores(dir);
  try {
    return await store.format.open();
  } finally {
    await leaderStore.close();
    await store.close();
  }
}

Deno.test("an empty embedded directory gets the newest format; one with data and no record is format 1", async () => {
  await withDir(async (dir) => {
    assert.equal(await formatOf(dir), NEWEST_STORE_FORMAT);
    assert.equal(
      await Deno.readTextFile(`${dir}/format.json`),
      `{"version":${NEWEST_STORE_FORMAT}}`,
    );
  });
  await withDir(async (dir) => {
    const { store, leaderStore } = await openEmbeddedStores(dir);
    await store.setDrained("ns", ["3"], true);
    await leaderStore.close();
    await store.close();
    assert.equal(await formatOf(dir), 1);
    const { store: again, leaderStore: leaders } = await openEmbeddedStores(dir);
    assert.equal(await again.format.raise(2), 1);
    assert.equal(await again.format.open(), 2);
    await leaders.close();
    await again.close();
  });
});

Deno.test("an embedded directory at a newer format is refused", async () => {
  await withDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/format.json`, '{"version":99}');
    await assert.rejects(formatOf(dir), StoreFormatError);
    await assert.rejects(formatOf(dir), /format 99 .*newer than this release reads/);
  });
});
