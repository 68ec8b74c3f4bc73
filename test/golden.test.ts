/**
 * Golden tests, in actionlint's manner: every spec in test/fixtures/valid must produce no
 * diagnostics; every spec in test/fixtures/invalid/<rule>/ must produce exactly the diagnostics
 * in the `.expected` file beside it, and at least one of them from <rule>.
 *
 * A fixture may also have `NAME.loaded.expected`: what validate finds with `loadModules: true`
 * (modules loaded in a separate process, so the shapes of exports and tools' argument schemas are
 * checked too); the plain `.expected` is the default, which parses modules and runs nothing.
 * Between them, at least one diagnostic is from <rule>.
 *
 * Expected line format: `LINE:COL-ENDLINE:ENDCOL SEVERITY [RULE] MESSAGE (hint: HINT)`.
 * After a deliberate change, `UPDATE_GOLDEN=1 npx vitest run test/golden.test.ts` rewrites them;
 * review the diff before committing.
 *
 * GRAPHSPEC_GOLDEN_RULES (comma-separated rule names) runs only those rules' invalid fixtures and
 * no valid ones: mutation testing of one rule (stryker/<group>.config.mjs) runs its own fixtures
 * for each mutant, not all of them.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { readSpec, type ValidateOptions, validate } from "../src/index.js";
import { formatExpected } from "./helpers.js";

const FIXTURES = join(import.meta.dirname, "fixtures");
const SPEC = /\.(ya?ml|json)$/;

const specsIn = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => SPEC.test(f) && !f.includes(".test."))
        .sort()
    : [];

const onlyRules = process.env.GRAPHSPEC_GOLDEN_RULES?.split(",");

describe.skipIf(onlyRules)("valid fixtures produce no diagnostics", () => {
  for (const name of specsIn(join(FIXTURES, "valid"))) {
    it(name, async () => {
      const doc = await readSpec(join(FIXTURES, "valid", name), { root: FIXTURES });
      const found = await validate(doc);
      expect(formatExpected(found)).toEqual([]);
    });
  }
});

const invalidDir = join(FIXTURES, "invalid");
const ruleDirs = (existsSync(invalidDir) ? readdirSync(invalidDir).sort() : []).filter(
  (rule) => !onlyRules || onlyRules.includes(rule),
);

for (const rule of ruleDirs) {
  describe(`invalid/${rule}`, () => {
    for (const name of specsIn(join(invalidDir, rule))) {
      it(name, async () => {
        const path = join(invalidDir, rule, name);
        const doc = await readSpec(path, { root: FIXTURES, file: relative(FIXTURES, path) });
        const runs: [string, ValidateOptions][] = [[".expected", {}]];
        if (existsSync(path.replace(SPEC, ".loaded.expected")))
          runs.push([".loaded.expected", { loadModules: true }]);
        const rules = new Set<string>();
        for (const [suffix, options] of runs) {
          const found = await validate(doc, options);
          for (const d of found) rules.add(d.rule);
          const lines = formatExpected(found);
          const expectedPath = path.replace(SPEC, suffix);
          if (process.env.UPDATE_GOLDEN) writeFileSync(expectedPath, `${lines.join("\n")}\n`);
          const expected = readFileSync(expectedPath, "utf8").trimEnd().split("\n").filter(Boolean);
          expect(lines, suffix).toEqual(expected);
        }
        expect(rules.has(rule)).toBe(true);
      });
    }
  });
}
