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
 * group with `postgres` gets a PostgreSQL server for its tests (test/support/postgres-server.ts);
 * one with `freshRunners` a new test runner for each mutant (slower; for tests that leave state
 * behind in their runner).
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
    mutate: [
      "src/check/rules/parallel-write.ts",
      "src/check/graph/{step-effects,steps,triggers,per-document,wording}.ts",
    ],
    // Its rule's golden fixtures only: each mutant of one rule need not run every fixture.
    tests: [
      "test/check/parallel-write.test.ts",
      "test/step-effects.test.ts",
      "test/golden.test.ts",
      "test/subgraph-rules.test.ts",
    ],
    // no-path-to-end and route-no-default: the only messages that list nodes (wording.ts' andNames).
    golden: ["parallel-write", "no-path-to-end", "route-no-default"],
    watch: [
      "src/check/**",
      "src/spec/control-flow.ts",
      "test/fixtures/invalid/{parallel-write,no-path-to-end,route-no-default}/**",
    ],
  },
  "graph-walk": {
    // The graph walk behind the static rules: the step exploration, the loops, the stepper.
    mutate: [
      "src/check/graph/explore-steps.ts",
      "src/check/graph/loops.ts",
      "src/check/graph/stepper.ts",
    ],
    // Quick files only: the golden fixtures of the rules that read the walk, and the walk's own
    // small graphs. Not test/graph-langgraph.test.ts (random graphs run on real LangGraph:
    // seconds per mutant) nor test/subgraph-rules.test.ts (compiles and runs).
    tests: ["test/golden.test.ts", "test/graph.test.ts", "test/graph-walk.test.ts"],
    golden: [
      "endless-loop",
      "no-path-to-end",
      "parallel-write",
      "unreachable-node",
      "missing-entry",
      "route-no-default",
      "unknown-node",
    ],
    watch: ["src/check/**", "src/spec/control-flow.ts"],
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
  // The rule with the code it delegates to: collecting and checking the spec's expressions
  // (src/check/expressions/). Next: the type checker in src/expr/ that decides its findings
  // (diagnose.ts, assignable.ts, from-schema.ts, ...; not cost-budget.ts, its own group) — its
  // tests are in test/check/expression-findings.test.ts already. The golden fixtures of the four
  // rules that share those findings.
  "expression-type": {
    mutate: ["src/check/rules/expression-type.ts", "src/check/expressions/**/*.ts"],
    tests: [
      "test/check/expression-findings.test.ts",
      "test/expr-check.test.ts",
      "test/expr.test.ts",
      "test/golden.test.ts",
      "test/check/rules-after-broken-sections.test.ts",
    ],
    golden: ["expression-type", "unknown-state-key", "reducer-write", "expression-syntax"],
    watch: [
      "src/check/**",
      "src/expr/**",
      "src/spec/scalar-spans.ts",
      "src/spec/reducer-fit.ts",
      "test/fixtures/invalid/expression-type/**",
      "test/fixtures/invalid/unknown-state-key/**",
      "test/fixtures/invalid/reducer-write/**",
      "test/fixtures/invalid/expression-syntax/**",
    ],
  },
  // The words of the expression errors users read: cel-js's parse and type errors turned into
  // graphspec's messages, hints and spans (diagnose.ts), its type names as users write types
  // (cel-type-text.ts). Its tests assert each message and hint exact through validate(); the
  // golden fixtures of the two rules it words.
  "expression-hints": {
    mutate: ["src/expr/diagnose.ts", "src/expr/cel-type-text.ts"],
    tests: [
      "test/check/expression-hints.test.ts",
      "test/check/expression-findings.test.ts",
      "test/expr-check.test.ts",
      "test/golden.test.ts",
    ],
    golden: ["expression-syntax", "expression-type"],
    watch: [
      "src/expr/**",
      "src/check/expressions/**",
      "test/fixtures/invalid/expression-syntax/**",
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
  "load-modules-sandbox": {
    mutate: ["src/modules/isolated/*.ts"],
    // A test runner per mutant: reused, mutants of the loader's spawn were counted killed by a
    // test that passes against each of them alone (docs/mutation-report.md).
    freshRunners: true,
    // In-process through validate(): test/support/stryker-child.ts carries the mutant into the
    // loading process (child-main.ts), and its coverage back.
    tests: [
      "test/modules/isolated-answer.test.ts",
      "test/security/load-modules-sandbox.test.ts",
      "test/modules.test.ts",
    ],
    watch: [
      "src/modules/**",
      "src/spec/data.ts",
      "test/support/stryker-child*",
      "test/security/validate-project.ts",
    ],
  },
  "size-limits": {
    // What a run is given (input, context, resume value) and may spend (tokens, time; the bounds
    // a server holds runs to), and the expression bounds.
    mutate: [
      "src/run/size-limits.ts",
      "src/run/limits.ts",
      "src/server/run-limits.ts",
      "src/expr/limits.ts",
    ],
    // Not test/run/limits.test.ts: its graphs/support-triage.yaml reads tools/, which Stryker's
    // sandbox leaves out (stryker/config.mjs); test/run/size-limits.test.ts covers the run guard.
    tests: [
      "test/run/size-limits.test.ts",
      "test/expr-check.test.ts",
      "test/server/run-limits.test.ts",
    ],
    watch: ["src/run/**", "src/server/run-routes.ts", "src/expr/**"],
  },
  "state-bounds": {
    // What a thread keeps: a checkpoint's state and a step's writes (checkpoint-bounds.ts, measured
    // by least-json-bytes.ts) and all of a thread's checkpoints (pruned by prune-thread.ts).
    mutate: [
      "src/run/checkpoint-bounds.ts",
      "src/run/least-json-bytes.ts",
      "src/run/prune-thread.ts",
    ],
    tests: [
      "test/least-json-bytes.test.ts",
      "test/security/state-bound-exact.test.ts",
      "test/security/state-bound-followed.test.ts",
      "test/security/state-bound-stops-run.test.ts",
      "test/security/thread-prune.test.ts",
      "test/security/sizes.test.ts",
      "test/run/checkpointer-conformance.test.ts",
    ],
    // Its PostgreSQL tests (discardWrites' PostgreSQL branch) start their own server.
    postgres: true,
    watch: ["src/run/**"],
  },
  "request-body": {
    // Every request body the API reads goes through jsonBody's size limit, JSON parse and shapes.
    mutate: ["src/server/request-body.ts"],
    // Not test/security/chunked-body-bound.test.ts: its server runs in another process.
    tests: ["test/server/request-body-web-stream.test.ts", "test/server/request-body.test.ts"],
    watch: ["src/server/**"],
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
