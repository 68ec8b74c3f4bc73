/**
 * The module groups under mutation testing (issue 31, docs/testing.md#mutation-testing): the code
 * whose job is to refuse, bound or hide, each with the test files that exercise it in-process.
 * Mutants live only in the test process: a test that reaches a module through the CLI or another
 * process cannot kill its mutants, so a group lists the files that import it (directly or through
 * `graphspec`, which stryker/vitest.config.ts points at src/).
 *
 * A group's `watch` lists, besides `mutate`, the files whose change calls for a rerun
 * (`npm run mutate -- --changed`): its tests, and what its modules depend on.
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
    // Not test/golden.test.ts: Stryker's sandbox copies the symlink of its path-escape fixture
    // (test/fixtures/modules/linked-tickets.ts) as a file, and that fixture then fails.
    tests: ["test/step-effects.test.ts", "test/subgraph-rules.test.ts"],
    watch: ["src/check/**"],
  },
};
