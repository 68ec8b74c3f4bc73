/**
 * `validate(…, { loadModules })` for the tests of the `--load-modules` sandbox, made visible to
 * StrykerJS (the `load-modules-sandbox` group, docs/testing.md#mutation-testing). Outside Stryker it
 * is `validate` with the options given, nothing added.
 *
 * Under Stryker, a mutant is switched on in the test process (`globalThis.__stryker__.activeMutant`),
 * but the module is loaded in a process of its own, which runs the sandbox's instrumented
 * child-main.ts and would never see it. So, through the public `loadModules.env` option (what
 * `--load-env` passes), the loading process gets:
 * - `__STRYKER_ACTIVE_MUTANT__`: the variable Stryker's instrumented code reads when its namespace
 *   has no active mutant yet (@stryker-mutator/instrumenter's header) — the child runs the mutant
 *   the test process runs;
 * - `NODE_OPTIONS=--import stryker-child-coverage.mjs` and a directory, where the child writes
 *   which mutants it reached; they are added here to the running test's coverage, so Stryker runs
 *   the child's mutants against the tests that reach them.
 * Those variables are what the tests of the loader's environment leave out (STRYKER_VARIABLES).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type Diagnostic, type LoadModulesOptions, validate } from "../../src/index.js";

interface Coverage {
  static: Record<string, number>;
  perTest: Record<string, Record<string, number>>;
}
interface StrykerNamespace {
  activeMutant?: string;
  currentTestId?: string;
  mutantCoverage?: Coverage;
}

/** The variables added to the loading process under Stryker. */
export const STRYKER_VARIABLES = [
  "__STRYKER_ACTIVE_MUTANT__",
  "NODE_OPTIONS",
  "GRAPHSPEC_STRYKER_COVERAGE_DIR",
];

const stryker = (): StrykerNamespace | undefined =>
  (globalThis as { __stryker__?: StrykerNamespace }).__stryker__;

/** `validate(doc, { loadModules })`, with Stryker's mutant and coverage carried across the loading process. */
export async function validateLoading(
  doc: Parameters<typeof validate>[0],
  loadModules: LoadModulesOptions = {},
): Promise<Diagnostic[]> {
  const ns = stryker();
  if (!ns) return validate(doc, { loadModules });
  const dir = mkdtempSync(join(tmpdir(), "graphspec-stryker-child-"));
  const preload = pathToFileURL(join(import.meta.dirname, "stryker-child-coverage.mjs")).href;
  const env: Record<string, string> = {
    ...loadModules.env,
    NODE_OPTIONS: `--import=${preload}`,
    GRAPHSPEC_STRYKER_COVERAGE_DIR: dir,
  };
  if (ns.activeMutant !== undefined) env.__STRYKER_ACTIVE_MUTANT__ = String(ns.activeMutant);
  try {
    return await validate(doc, { loadModules: { ...loadModules, env } });
  } finally {
    addCoverage(ns, dir);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Adds what the loading processes reached to the running test's coverage (Stryker's dry run). */
function addCoverage(ns: StrykerNamespace, dir: string): void {
  if (ns.activeMutant !== undefined) return;
  ns.mutantCoverage ??= { static: {}, perTest: {} };
  const { perTest } = ns.mutantCoverage;
  const test = ns.currentTestId;
  if (test !== undefined) perTest[test] ??= {};
  const into = test === undefined ? ns.mutantCoverage.static : (perTest[test] ?? {});
  for (const file of readdirSync(dir)) {
    const child: Coverage = JSON.parse(readFileSync(join(dir, file), "utf8"));
    for (const hits of [child.static, ...Object.values(child.perTest)])
      for (const [id, n] of Object.entries(hits)) into[id] = (into[id] ?? 0) + n;
  }
}
