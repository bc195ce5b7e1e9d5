import assert from "node:assert/strict";
import { FencedError } from "../../core/errors.ts";
import { ROTATION_SUMMARY_MS, RotationDigest, takeoverNote, termEnd } from "./term_history.ts";

const me = { instanceId: "b", instanceName: "sm-b", term: 8 };
const previous = { instanceId: "a", instanceName: "sm-a", term: 7, sinceMs: 0 };

Deno.test("term history: a new leader tells how the previous term ended", () => {
  assert.equal(takeoverNote(undefined, me)?.text, "instance sm-b leads (term 8)");
  const shutdown = { atMs: 1, reason: "The service is shutting down", routine: false };
  const handed = takeoverNote({ ...previous, ended: shutdown }, me)!;
  assert.equal(handed.reason, "handed_over");
  assert.match(
    handed.text,
    /instance sm-a \(term 7\) handed over \(The service is shutting down\)/,
  );
  const killed = takeoverNote(previous, me)!;
  assert.equal(killed.reason, "not_handed_over");
  assert.match(killed.text, /sm-a \(term 7\) did not hand over; its election lease ran out/);
  const routine = { atMs: 1, reason: "leader period over", routine: true };
  assert.equal(takeoverNote({ ...previous, ended: routine }, me), undefined);
});

Deno.test("term history: a term lost without a handover is told by its leader; others are handovers", () => {
  const lease = termEnd(me, true, new Error("lease lost"));
  assert.equal(lease.kind === "lost" && lease.note.reason, "lease_expired");
  const fenced = termEnd(me, false, new FencedError("ns", "assignment change 3 was refused"));
  assert.equal(fenced.kind === "lost" && fenced.note.reason, "fenced");
  assert.deepEqual(termEnd(me, false, new Error("leader period over")), {
    kind: "handover",
    end: { reason: "leader period over", routine: true },
  });
  assert.deepEqual(termEnd(me, false, new Error("definition changed")), {
    kind: "handover",
    end: { reason: "definition changed", routine: false },
  });
});

Deno.test("term history: routine rotations make one note at first, then one an hour", () => {
  const digest = new RotationDigest();
  const other = { ...previous, instanceName: "sm-c" };
  let at = 1_000_000;
  const notes = [];
  for (let i = 0; i < 200; i++) {
    at += 60_000;
    const note = digest.taken(i % 2 ? previous : other, me, at);
    if (note) notes.push(note);
  }
  // 200 rotations a minute apart: the first, then one per hour (3 full hours).
  assert.equal(notes.length, 4);
  assert.match(notes[0]!.text, /routine leader rotation: this instance took over from sm-c/);
  assert.match(
    notes[1]!.text,
    /^60 routine leader rotations taken by this instance in the last 60 min \(from sm-a 30, sm-c 30\)$/,
  );
  assert.equal(ROTATION_SUMMARY_MS, 3_600_000);
});
