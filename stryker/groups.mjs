/**
 * The module groups under mutation testing (issue 31, docs/testing.md#mutation-testing): the code
 * whose job is to refuse, bound or hide, each with the test files that exercise it in-process.
 * Mutants live only in the test process: a test that reaches a module through the CLI or another
 * process cannot kill its mutants, so a group lists the files that import it (directly or through
 * `graphspec`, which stryker/vitest.config.ts points at src/).
 *
 * A group's `watch` lists, besides `mutate`, the files whose change calls for a rerun
 * (`npm run mutate -- --changed`): its tests, and what its modules depend on. A group's `golden`
 * lists the rules whose golden fixtures test/golden.test.ts runs for it (all when absent); a
 * group with `postgres` gets a PostgreSQL server for its tests (test/support/postgres-server.ts).
 */
export const groups = {
  "cost-budget": {
    mutate: ["src/expr/cost-budget.ts"],
    tests: ["test/expr/cost-budget.test.ts", "test/expr.test.ts", "test/expr-eval.test.ts"],
    watch: ["src/expr/**", "src/spec/linear-regex.ts"],
  },
  "auth-tenancy": {
    mutate: ["src/server/auth.ts", "src/server/tenancy.ts"],
    tests: [
      "test/security/auth-refusals.test.ts",
      "test/security/tenancy.test.ts",
      "test/security/server-auth-handler.test.ts",
      "test/security/assistant-auth-handler.test.ts",
      "test/security/server-tenants.test.ts",
    ],
    watch: ["src/server/**"],
  },
  secrets: {
    mutate: ["src/run/secret-guard.ts", "src/run/secret-events.ts"],
    tests: [
      "test/run/secret-guard.test.ts",
      "test/run/secret-events.test.ts",
      "test/security/secrets.test.ts",
      "test/security/secrets-resume.test.ts",
      "test/security/server-secrets.test.ts",
      "test/server/secret-context-fork.test.ts",
    ],
    watch: ["src/run/**"],
  },
  "write-guard": {
    mutate: ["src/compile/write-guard.ts"],
    // Not test/compile/state.test.ts: its generated sequences of writes (fast-check) make each
    // mutant a minute's run; test/compile/write-guard.test.ts checks each reducer's guard alone.
    tests: ["test/compile/write-guard.test.ts", "test/compile/io.test.ts"],
    watch: ["src/compile/**", "src/expr/reducers.ts"],
  },
  "parallel-write": {
    mutate: ["src/check/rules/parallel-write.ts", "src/check/graph/**/*.ts"],
    // Its rule's golden fixtures only: each mutant of one rule need not run every fixture.
    tests: ["test/step-effects.test.ts", "test/subgraph-rules.test.ts", "test/golden.test.ts"],
    golden: ["parallel-write"],
    watch: ["src/check/**"],
  },
  "state-keys": {
    mutate: ["src/check/rules/unknown-state-key.ts", "src/check/rules/expression-type.ts"],
    tests: ["test/golden.test.ts", "test/check/rules-after-broken-sections.test.ts"],
    golden: ["unknown-state-key", "expression-type"],
    watch: [
      "src/check/**",
      "src/expr/**",
      "test/fixtures/invalid/unknown-state-key/**",
      "test/fixtures/invalid/expression-type/**",
    ],
  },
  "no-path-to-end": {
    mutate: ["src/check/rules/no-path-to-end.ts"],
    tests: ["test/golden.test.ts", "test/check/rules-after-broken-sections.test.ts"],
    golden: ["no-path-to-end"],
    watch: ["src/check/**", "test/fixtures/invalid/no-path-to-end/**"],
  },
  "tool-args": {
    mutate: ["src/check/rules/tool-args.ts"],
    tests: ["test/golden.test.ts", "test/check/rules-after-broken-sections.test.ts"],
    golden: ["tool-args"],
    watch: ["src/check/**", "src/json-schema/**", "test/fixtures/invalid/tool-args/**"],
  },
  "thread-claims": {
    mutate: [
      "src/run/thread-claims.ts",
      "src/run/thread-claims-sqlite.ts",
      "src/run/thread-claims-postgres.ts",
      "src/run/thread-guard.ts",
    ],
    // Not test/security/threads.test.ts: it races CLI processes, where no mutant lives, and its
    // in-process cases are in test/run/thread-claims.test.ts (each mutant's run loaded both).
    tests: ["test/run/thread-claims.test.ts"],
    // Its PostgreSQL tests start their own server (test/support/postgres-server.ts).
    postgres: true,
    watch: ["src/run/**"],
  },
  "path-containment": {
    mutate: [
      "src/spec/inside-root.ts",
      "src/spec/path-probes.ts",
      "src/check/rules/path-escape.ts",
      "src/modules/files.ts",
    ],
    tests: [
      "test/security/path-containment.test.ts",
      "test/golden.test.ts",
      "test/modules.test.ts",
      "test/security/validate.test.ts",
      "test/security/catalog.test.ts",
    ],
    // The fixtures of the rules resolveFile reports (the symlink one is made at set-up:
    // test/support/fixture-links.ts).
    golden: ["path-escape", "unknown-module"],
    watch: [
      "src/spec/**",
      "src/modules/**",
      "src/check/**",
      "test/fixtures/invalid/path-escape/**",
      "test/fixtures/invalid/unknown-module/**",
      "test/support/fixture-links.ts",
    ],
  },
};
