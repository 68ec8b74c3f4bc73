/**
 * Preloaded (`--import`) into `validate --load-modules`' loading process by
 * test/support/stryker-child.ts, only when the tests run under StrykerJS: when the process ends, it
 * writes the mutants its instrumented code reached (Stryker's coverage, which lives in this
 * process's `globalThis.__stryker__`) to a file of its own in GRAPHSPEC_STRYKER_COVERAGE_DIR, for
 * the test process to add to its own. Without it, code that runs only in the loading process
 * (child-main.ts) would have no coverage, and Stryker would run none of its mutants.
 */
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.env.GRAPHSPEC_STRYKER_COVERAGE_DIR;
if (dir)
  process.on("exit", () => {
    const coverage = globalThis.__stryker__?.mutantCoverage;
    if (!coverage) return;
    try {
      writeFileSync(join(dir, `${randomUUID()}.json`), JSON.stringify(coverage));
    } catch {
      // The test has already gone on; its coverage is only a little smaller.
    }
  });
