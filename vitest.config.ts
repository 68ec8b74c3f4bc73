import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * The files that change what every module of their process sees — a mocked built-in module
 * (vi.mock), `process.env` set for a server the file starts, gates kept on `globalThis` by the
 * graphs' nodes that the file opens — each run in a process of their own (vitest's default). Every
 * other file shares its worker's modules with the files before it (`isolate: false`): LangGraph,
 * LangChain and graphspec are imported once per worker, not once per file (up to a CPU second a
 * file; docs/testing.md). A new file that mocks a module or sets process-wide state goes here.
 */
const ISOLATED = [
  // vi.mock("node:fs/promises"): has no effect on modules an earlier file already imported.
  "test/server/graph-catalog-reads.test.ts",
  // vi.stubEnv, process.env: restored by the files, but only once their tests end.
  "test/run/errors.test.ts",
  "test/platform-graph.test.ts",
  "test/run/postgres.test.ts",
  "test/web/page-usage.e2e.test.ts",
  // Replaces process.env with a copy of the one it started with.
  "test/security/secrets.test.ts",
  // Nodes that wait on gates held in globalThis (test/fixtures/*/nodes/gate.mjs): a gate a failed
  // test left waiting must not be the next file's.
  "test/server/checkpoints.test.ts",
  "test/server/sdk.test.ts",
  "test/server/sdk-compat.test.ts",
  "test/server/run-start.test.ts",
  "test/server/run-limits.test.ts",
  "test/web/threads-view.test.ts",
  "test/web/page-leave-run.e2e.test.ts",
  "test/server/on-disconnect.test.ts",
  "test/web/use-stream.e2e.test.ts",
  "test/server/multitask-interrupt.test.ts",
  "test/server/multitask-enqueue.test.ts",
  "test/web/run-follow.test.ts",
  "test/security/tenant-fair-share.test.ts",
  // Nests YAML until the parser runs out of stack: how much stack is left depends on what ran in
  // the worker before (it failed twice in shared workers, 2026-11-27).
  "test/loader.test.ts",
  // vi.resetModules (a fresh graphspec per containment, chosen once per module graph) and
  // process.env.PATH set while it validates.
  "test/security/load-modules-sandbox.test.ts",
];

/** What every project's files get. */
const perFile = {
  // A guard against hangs, not a measure: a test made of many CLI steps, beside another file's
  // on the second core, may take past 30 s on a busy 2-core machine.
  testTimeout: 60_000,
  // A set-up starts CLIs and servers as tests do: under the load of a full run it gets their time.
  hookTimeout: 30_000,
};

export default defineConfig({
  test: {
    // One test file per core. Vitest's default keeps a core for itself (one worker on a 2-core CI
    // machine), but most files spend their time waiting on the CLI processes, servers and browsers
    // they start, and vitest's main process is nearly idle: one worker left the second core idle.
    maxWorkers: availableParallelism(),
    // A real PostgreSQL server for the tests that need one (test/support/postgres.ts). Set here,
    // not in the projects, so that one server serves both.
    // And the fixtures' symbolic links (test/support/fixture-links.ts), made rather than committed.
    globalSetup: ["test/support/postgres-server.ts", "test/support/fixture-links.ts"],
    reporters: ["default"],
    projects: [
      {
        test: {
          ...perFile,
          name: "shared",
          include: ["test/**/*.test.ts"],
          exclude: ISOLATED,
          isolate: false,
        },
      },
      { test: { ...perFile, name: "isolated", include: ISOLATED } },
    ],
  },
});
