import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    // A real PostgreSQL server for the tests that need one (test/support/postgres.ts).
    globalSetup: ["test/support/postgres-server.ts"],
    reporters: ["default"],
  },
});
