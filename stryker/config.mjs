/**
 * The Stryker configuration of one group of stryker/groups.mjs. Each group has its own file
 * (stryker/<group>.config.mjs) so that `stryker run stryker/<group>.config.mjs` works alone;
 * scripts/mutate.mjs runs them and prints the scores.
 */
import { groups } from "./groups.mjs";

/** @returns {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export function strykerConfig(name) {
  const group = groups[name];
  if (!group) throw new Error(`no mutation group ${name}; the groups: ${Object.keys(groups)}`);
  // The group's test files, for stryker/vitest.config.ts in Stryker's test runner processes (they
  // inherit this environment). Not Stryker's own `testFiles`: with it, Stryker 10.1 activates a
  // static mutant (one run as its module loads, like a constant's) only after the modules have
  // loaded, so no test could see it and each survived.
  process.env.GRAPHSPEC_MUTATE_TESTS = JSON.stringify(group.tests);
  // A rule's group runs only its rules' golden fixtures (test/golden.test.ts reads this).
  if (group.golden) process.env.GRAPHSPEC_GOLDEN_RULES = group.golden.join(",");
  // A group whose tests need PostgreSQL gets the suite's server (stryker/vitest.config.ts).
  if (group.postgres) process.env.GRAPHSPEC_MUTATE_POSTGRES = "1";
  // The Node the test runners run on, when it is not the one running Stryker (which needs 22+):
  // the tests' native addons (better-sqlite3) are built for one Node only. Stryker starts its
  // test runners with child_process.fork, which runs process.execPath.
  const runnerNode = process.env.GRAPHSPEC_MUTATE_RUNNER_NODE;
  if (runnerNode) process.execPath = runnerNode;
  return {
    testRunner: "vitest",
    plugins: ["@stryker-mutator/vitest-runner"],
    mutate: group.mutate,
    // Each mutant runs against the tests that covered it (all of the group's, for a static one).
    coverageAnalysis: "perTest",
    vitest: { configFile: "stryker/vitest.config.ts", related: false },
    // A rerun tests only the mutants whose code or covering tests changed; the file is the
    // group's last result (committed: see docs/testing.md#mutation-testing).
    incremental: true,
    incrementalFile: `stryker/incremental/${name}.json`,
    reporters: ["json", "clear-text", "progress-append-only"],
    jsonReporter: { fileName: `reports/mutation/${name}.json` },
    clearTextReporter: { allowEmojis: false, logTests: false, reportScoreTable: true },
    // Two cores shared with other work: one or two test runners (GRAPHSPEC_MUTATE_CONCURRENCY).
    concurrency: Number(process.env.GRAPHSPEC_MUTATE_CONCURRENCY ?? 2),
    // A group whose tests leave state behind in a test runner (a child process's, a module's)
    // gets a fresh runner per mutant: reused, one mutant's leftovers failed the next one's test
    // and counted it killed (seen in `load-modules-sandbox`).
    ...(group.freshRunners ? { maxTestRunnerReuse: 1 } : {}),
    // A mutant that loops (a bound moved) ends as a timeout, which counts as killed.
    timeoutMS: 20_000,
    // The first run of all of a group's tests (CLI processes, servers) on a loaded 2-core
    // machine: Stryker's default of 5 minutes ended it before it was done.
    dryRunTimeoutMinutes: 30,
    tempDirName: `.stryker-tmp/${name}`,
    // What the tests never read: kept out of the sandbox copy.
    // Other groups' sandboxes (/.stryker-tmp) too: Stryker leaves out only its own tempDirName.
    ignorePatterns: [
      "/.stryker-tmp",
      "bench",
      "docs/images",
      "tools",
      "reports",
      "test/artifacts",
      ".graphspec",
    ],
    // Stryker rewrites a sandbox's tsconfig.json with TypeScript's JS API, which TypeScript 7 no
    // longer has; vitest does not read tsconfig.json, so no tsconfig is named.
    tsconfigFile: "stryker/none.tsconfig.json",
    thresholds: { high: 90, low: 80, break: null },
    warnings: { slow: false },
  };
}
