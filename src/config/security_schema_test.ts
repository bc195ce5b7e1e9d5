import assert from "node:assert/strict";
import { authSchema } from "./security_schema.ts";

Deno.test("auth rules take a namespaces list of names and globs", () => {
  const auth = authSchema.parse({
    tokens: [{ name: "a", roles: ["operator"], env: "A", namespaces: ["orders", "team-a-*"] }],
    certificates: [{ subject: "x", roles: ["spectator"], namespaces: ["b"] }],
  });
  assert.deepEqual(auth.tokens[0]?.namespaces, ["orders", "team-a-*"]);
  assert.deepEqual(auth.certificates[0]?.namespaces, ["b"]);
  assert.equal(
    authSchema.parse({ tokens: [{ name: "a", roles: [], env: "A" }] }).tokens[0]
      ?.namespaces,
    undefined,
  );
});

Deno.test("an empty namespaces list is refused, naming the field", () => {
  const result = authSchema.safeParse({
    tokens: [{ name: "a", roles: ["operator"], env: "A", namespaces: [] }],
  });
  assert.ok(!result.success);
  const [issue] = result.error.issues;
  assert.deepEqual(issue?.path, ["tokens", 0, "namespaces"]);
  assert.match(issue?.message ?? "", /at least one namespace/);
});
