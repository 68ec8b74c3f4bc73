/**
 * Vitest as Stryker runs it (stryker/config.mjs): the group's test files only
 * (GRAPHSPEC_MUTATE_TESTS, set by the group's Stryker configuration), each in a fresh module graph (vitest's default isolation: a mutant switched on in
 * one file's run never leaks into the next), and `graphspec` resolved to the sources Stryker
 * mutated rather than to dist/. No PostgreSQL: no group's tests need one.
 */
import { join } from "node:path";
import { defineConfig } from "vitest/config";

const tests = process.env.GRAPHSPEC_MUTATE_TESTS;
if (!tests) throw new Error("stryker/vitest.config.ts runs under a group's Stryker configuration");

export default defineConfig({
  resolve: {
    alias: [{ find: /^graphspec$/, replacement: join(import.meta.dirname, "../src/index.ts") }],
  },
  test: {
    include: JSON.parse(tests) as string[],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    reporters: ["default"],
  },
});
