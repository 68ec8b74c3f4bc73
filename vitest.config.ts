import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // A guard against hangs, not a measure: a test made of many CLI steps, beside another file's
    // on the second core, may take past 30 s on a busy 2-core machine.
    testTimeout: 60_000,
    // A set-up starts CLIs and servers as tests do: under the load of a full run it gets their time.
    hookTimeout: 30_000,
    // One test file per core. Vitest's default keeps a core for itself (one worker on a 2-core CI
    // machine), but most files spend their time waiting on the CLI processes, servers and browsers
    // they start, and vitest's main process is nearly idle: one worker left the second core idle.
    maxWorkers: availableParallelism(),
    // A real PostgreSQL server for the tests that need one (test/support/postgres.ts).
    globalSetup: ["test/support/postgres-server.ts"],
    reporters: ["default"],
  },
});
