// Mutation testing of the groups in stryker/groups.mjs (docs/testing.md#mutation-testing).
//
//   npm run mutate -- cost-budget secrets     the named groups
//   npm run mutate -- --changed [BASE]        the groups a change touches (git diff BASE, default origin/main or main)
//   npm run mutate -- --all                   every group
//   npm run mutate -- --scores                print the scores of the last reports, running nothing
//   --force                                   test every mutant again, not only what changed
//   --min N                                   exit 1 when a group scores under N% (CI: 90)
//
// Each group runs StrykerJS with its own configuration (stryker/<group>.config.mjs), incremental:
// only the mutants whose code or covering tests changed since the group's incremental file are run
// again. The score printed is killed + timeout over every scored mutant, with NoCoverage counted as
// survived (Stryker's own "mutation score" counts it so too; its "of covered" does not).
// StrykerJS needs Node 22 or later: GRAPHSPEC_STRYKER_NODE names that Node when the one running
// this script is older.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, matchesGlob } from "node:path";
import { groups } from "../stryker/groups.mjs";

const root = join(import.meta.dirname, "..");
/** A change to these reruns every group (incremental: only what the change moved). */
const SHARED = ["stryker/config.mjs", "stryker/vitest.config.ts", "package.json"];
const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  if (i >= 0) args.splice(i, 1);
  return i >= 0;
};
const option = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const [, value] = args.splice(i, 2);
  return value;
};

const force = flag("--force");
const all = flag("--all");
const scoresOnly = flag("--scores");
const minText = option("--min");
const min = minText === undefined ? undefined : Number(minText);
let names;
if (flag("--changed")) {
  const base = args.shift() ?? defaultBase();
  names = changedGroups(base);
  console.log(`groups touched since ${base}: ${names.length ? names.join(", ") : "none"}`);
} else names = all || (scoresOnly && args.length === 0) ? Object.keys(groups) : args;
for (const n of names) {
  if (!groups[n]) fail(`no mutation group ${n}; the groups: ${Object.keys(groups).join(", ")}`);
}
if (names.length === 0 && !all) {
  if (process.argv.includes("--changed")) process.exit(0);
  fail(`name a group (${Object.keys(groups).join(", ")}), or --all, or --changed [BASE]`);
}

const node = process.env.GRAPHSPEC_STRYKER_NODE ?? process.execPath;
let failed = false;
for (const name of names) {
  if (!scoresOnly) {
    const run = spawnSync(
      node,
      [
        join(root, "node_modules/@stryker-mutator/core/bin/stryker.js"),
        "run",
        `stryker/${name}.config.mjs`,
        ...(force ? ["--force"] : []),
      ],
      { cwd: root, stdio: "inherit", env: runnerEnv() },
    );
    if (run.status !== 0) {
      console.error(`stryker failed on group ${name} (exit ${run.status ?? run.signal})`);
      failed = true;
      continue;
    }
  }
  const score = groupScore(name);
  if (score && min !== undefined && score.percent < min) failed = true;
}
process.exit(failed ? 1 : 0);

/**
 * With Stryker on another Node than this script's, its test runners still run on this one: the
 * tests' native addon (better-sqlite3) is built for this Node (stryker/config.mjs).
 */
function runnerEnv() {
  const env = { ...process.env };
  if (node !== process.execPath) env.GRAPHSPEC_MUTATE_RUNNER_NODE ??= process.execPath;
  return env;
}

/** Prints and returns a group's score from its last JSON report. */
function groupScore(name) {
  const file = join(root, "reports/mutation", `${name}.json`);
  if (!existsSync(file)) {
    console.log(`${name}: no report (run the group first)`);
    return undefined;
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  const rows = [];
  const total = count([]);
  for (const [path, f] of Object.entries(report.files)) {
    const c = count(f.mutants);
    rows.push([path, c]);
    for (const k of Object.keys(c)) total[k] += c[k];
  }
  console.log(`\n${name}: ${line(total)}`);
  for (const [path, c] of rows) console.log(`  ${path}: ${line(c)}`);
  for (const [path, f] of Object.entries(report.files)) {
    for (const m of f.mutants) {
      if (m.status !== "Survived" && m.status !== "NoCoverage") continue;
      const at = `${path}:${m.location.start.line}:${m.location.start.column}`;
      const replacement = m.replacement === undefined ? "" : ` -> ${oneLine(m.replacement)}`;
      console.log(`    ${m.status} ${at} ${m.mutatorName}${replacement}`);
    }
  }
  return { percent: percent(total) };
}

function count(mutants) {
  const c = { killed: 0, timeout: 0, survived: 0, noCoverage: 0, other: 0 };
  for (const m of mutants) {
    if (m.status === "Killed") c.killed++;
    else if (m.status === "Timeout") c.timeout++;
    else if (m.status === "Survived") c.survived++;
    else if (m.status === "NoCoverage") c.noCoverage++;
    else c.other++; // CompileError, RuntimeError, Ignored: not scored
  }
  return c;
}
function scored(c) {
  return c.killed + c.timeout + c.survived + c.noCoverage;
}
function percent(c) {
  return scored(c) === 0 ? 100 : (100 * (c.killed + c.timeout)) / scored(c);
}
function line(c) {
  return (
    `${percent(c).toFixed(1)}% (${c.killed + c.timeout} killed or timed out / ${scored(c)} scored; ` +
    `${c.survived} survived, ${c.noCoverage} not covered${c.other ? `, ${c.other} not scored` : ""})`
  );
}
function oneLine(s) {
  const t = s.replace(/\s+/g, " ");
  return t.length > 80 ? `${t.slice(0, 77)}...` : t;
}

function defaultBase() {
  for (const ref of ["origin/main", "main"]) {
    if (spawnSync("git", ["rev-parse", "--verify", "-q", ref], { cwd: root }).status === 0)
      return ref;
  }
  fail("no main branch to compare with: name the base, --changed BASE");
}

/** The groups whose mutated files, tests or watched files differ between BASE and the work tree. */
function changedGroups(base) {
  const diff = spawnSync("git", ["diff", "--name-only", `${base}...`], {
    cwd: root,
    encoding: "utf8",
  });
  if (diff.status !== 0) fail(`git diff ${base}... failed: ${diff.stderr}`);
  const untracked = spawnSync("git", ["ls-files", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
  });
  const changed = [...diff.stdout.split("\n"), ...untracked.stdout.split("\n")].filter(Boolean);
  return Object.entries(groups)
    .filter(([name, g]) => {
      const patterns = [
        ...g.mutate,
        ...g.tests,
        ...g.watch,
        `stryker/${name}.config.mjs`,
        ...SHARED,
      ];
      return changed.some((f) => patterns.some((p) => matchesGlob(f, p)));
    })
    .map(([name]) => name);
}

function fail(message) {
  console.error(message);
  process.exit(2);
}
