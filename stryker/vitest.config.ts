/**
 * Vitest as Stryker runs it (stryker/config.mjs): the group's test files only
 * (GRAPHSPEC_MUTATE_TESTS, set by the group's Stryker configuration), each in a fresh module graph (vitest's default isolation: a mutant switched on in
 * one file's run never leaks into the next), and `graphspec` resolved to the sources Stryker
 * mutated rather than to dist/. PostgreSQL only for a group that asks (`postgres` in
 * stryker/groups.mjs): the suite's set-up starts a server of its own, once per test runner.
 */
import { join } from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const tests = process.env.GRAPHSPEC_MUTATE_TESTS;
if (!tests) throw new Error("stryker/vitest.config.ts runs under a group's Stryker configuration");

const order: string[] = JSON.parse(tests);

/**
 * The group's files in the order it lists them, its quick focused files first: Stryker stops a
 * mutant's run at its first failing test, and vitest's own order (slowest first) would start a
 * server before the unit test that kills the mutant in milliseconds.
 */
class GroupOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = order.findIndex((t) => f.moduleId.endsWith(t));
      return i < 0 ? order.length : i;
    };
    return [...files].sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  resolve: {
    alias: [{ find: /^graphspec$/, replacement: join(import.meta.dirname, "../src/index.ts") }],
  },
  test: {
    include: order,
    globalSetup: [
      "test/support/fixture-links.ts",
      ...(process.env.GRAPHSPEC_MUTATE_POSTGRES ? ["test/support/postgres-server.ts"] : []),
    ],
    sequence: { sequencer: GroupOrder },
    testTimeout: 60_000,
    hookTimeout: 30_000,
    reporters: ["default"],
  },
});
