/**
 * A run's input is open-ended: whatever a caller sends, a compiled graph either runs or refuses it
 * with a GraphspecRunError naming the key — never another exception, never a write LangGraph would
 * silently drop or store unchecked.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile, GraphspecRunError } from "../../src/compile/index.js";
import { specDoc } from "./helpers.js";

const SPEC = `version: 1
name: t
state:
  name: { type: string, maxLength: 20 }
  count: { type: integer, minimum: 0, reducer: sum, default: 0 }
  tags: { type: array, items: { type: string }, reducer: union, default: [] }
  meta: { type: object, properties: { score: { type: number } }, reducer: merge, default: {} }
  level: { type: string, enum: [low, high], default: low }
  anything: { type: any }
nodes:
  step: { kind: set, values: { count: 1, tags: seen } }
edges:
  - { from: START, to: step }
  - { from: step, to: END }
`;

const keys = fc.constantFrom(
  "name",
  "count",
  "tags",
  "meta",
  "level",
  "anything",
  "nmae",
  "__proto__x",
  "",
);
const input = fc.oneof(
  fc.dictionary(keys, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
  fc.jsonValue({ maxDepth: 2 }),
);

describe("fuzzing a run's input", () => {
  it("runs, or refuses with a GraphspecRunError that names the problem", async () => {
    const graph = await compile(specDoc(SPEC));
    await fc.assert(
      fc.asyncProperty(input, async (value) => {
        let out: Record<string, unknown> | undefined;
        let error: unknown;
        try {
          out = await graph.invoke(value as never);
        } catch (e) {
          error = e;
        }
        if (out) {
          // What ran is what the declarations allow (null is a reset, allowed anywhere).
          // A `sum` write is an increment: checked to be an integer, not against `minimum`.
          expect(Number.isInteger(out.count)).toBe(true);
          expect((out.tags as unknown[]).every((t) => typeof t === "string")).toBe(true);
          expect(["low", "high", null]).toContain(out.level);
          return;
        }
        expect(error).toBeInstanceOf(GraphspecRunError);
        const err = error as GraphspecRunError;
        expect(err.code).toBe("invalid-input");
        expect(err.message).toMatch(/^the run's input/);
      }),
      { numRuns: 300 },
    );
  });
});
