/**
 * The seal of a queued run's context (src/server/sealed-context.ts): it opens only with the same
 * key and for the same run, says which key it needs when it does not, and takes only 32-byte keys.
 * The end-to-end path (a run that needs its secrets, on SQLite and PostgreSQL) is in
 * test/security/server-records.test.ts.
 */
import { describe, expect, it } from "vitest";
import { recordsKey, seal, unseal } from "../../src/server/sealed-context.js";

const K1 = recordsKey("11".repeat(32));
const K2 = recordsKey(Buffer.alloc(32, 2).toString("base64"));
const CONTEXT = { api_key: "sk-live-7f3a9c1e5b2d8f40", user: "ada" };

describe("a sealed context", () => {
  it("opens with its key for its run, and holds nothing readable", () => {
    const sealed = seal(K1, CONTEXT, "run-1");
    expect(sealed).not.toContain("sk-live");
    expect(sealed.startsWith(`gs1:${K1.id}:`)).toBe(true);
    expect(unseal(K1, sealed, "run-1")).toEqual({ value: CONTEXT });
  });

  it("does not open under another key, without a key, for another run, or changed", () => {
    const sealed = seal(K1, CONTEXT, "run-1");
    expect(unseal(K2, sealed, "run-1")).toEqual({
      problem: `its context is sealed with records key ${K1.id}, and this replica has key ${K2.id}`,
    });
    expect(unseal(undefined, sealed, "run-1")).toMatchObject({
      problem: expect.stringContaining("no GRAPHSPEC_RECORDS_KEY"),
    });
    expect(unseal(K1, sealed, "run-2")).toHaveProperty("problem");
    const flipped = sealed.slice(0, -4) + (sealed.endsWith("AAAA") ? "BBBB" : "AAAA");
    expect(unseal(K1, flipped, "run-1")).toHaveProperty("problem");
  });

  it("takes 32 bytes as hex or base64 only", () => {
    for (const bad of [
      "",
      "short",
      "11".repeat(31),
      "zz".repeat(32),
      Buffer.alloc(16).toString("base64"),
    ])
      expect(() => recordsKey(bad)).toThrow(/32 random bytes/);
  });
});
