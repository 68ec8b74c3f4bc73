// Mutation testing of the groups in stryker/groups.mjs (docs/testing.md#mutation-testing).
//
//   npm run mutate -- cost-budget secrets     the named groups
//   npm run mutate -- --changed [BASE]        the groups a change touches (git diff BASE, default origin/main or main)
//   npm run mutate -- --all                   every group
//   npm run mutate -- --scores                print the scores of the last reports, running nothing
//   --force                                   test every mutant again, not only what changed
//   --min N                                   exit 1 when a group scores under N% (CI: 90)
//   --plan                                    print which groups would run and whether forced, running nothing
//
// Each group runs StrykerJS with its own configuration (stryker/<group>.config.mjs), incremental:
// only the mutants whose code or covering tests changed since the group's incremental file are run
// again. The score printed is killed + timeout over every scored mutant, with NoCoverage counted as
// survived (Stryker's own "mutation score" counts it so too; its "of covered" does not).
//
// Stryker reuses a mutant's last result when neither its file nor its covering tests changed, even
// when a file the module depends on did (src/spec/data.ts under a rule). So beside each
// incremental file, stryker/incremental/<group>.watch.json holds the sha-256 of each of the
// group's `watch` files (less its mutated and test files, which Stryker follows itself) as of its
// last run; when one differs, the group runs with --force, and a stale result never passes.
// StrykerJS needs Node 22 or later: GRAPHSPEC_STRYKER_NODE names that Node when the one running
// this script is older.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, matchesGlob } from "node:path";
import { groups } from "../stryker/groups.mjs";

const root = join(import.meta.dirname, "..");
/** A change to these reruns every group (incremental: only what the change moved). */
const SHARED = ["stryker/config.mjs", "stryker/vitest.config.ts", "package.json"];
/** staleWatched's answer when a group has no record of its watched files. */
const NO_RECORD = "";
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
const planOnly = flag("--plan");
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
const under = [];
for (const name of names) {
  if (!scoresOnly) {
    const watched = watchedHashes(name);
    const stale = force ? [] : staleWatched(name, watched);
    const forced = force || stale.length > 0;
    console.log(plan(name, forced, stale));
    if (planOnly) continue;
    const run = spawnSync(
      node,
      [
        join(root, "node_modules/@stryker-mutator/core/bin/stryker.js"),
        "run",
        `stryker/${name}.config.mjs`,
        ...(forced ? ["--force"] : []),
      ],
      { cwd: root, stdio: "inherit", env: runnerEnv() },
    );
    if (run.status !== 0) {
      console.error(`stryker failed on group ${name} (exit ${run.status ?? run.signal})`);
      failed = true;
      continue;
    }
    writeFileSync(watchFile(name), `${JSON.stringify({ files: watched }, null, 2)}\n`);
  }
  const score = groupScore(name);
  if (score && min !== undefined && score.percent < min) {
    failed = true;
    under.push(`${name} ${score.percent.toFixed(1)}%`);
  }
}
if (under.length) console.error(`\nunder ${min}%: ${under.join(", ")}`);
process.exit(failed ? 1 : 0);

/** What a run of the group does: incremental, or forced and why. */
function plan(name, forced, stale) {
  if (!existsSync(incrementalFile(name))) return `${name}: every mutant (no incremental file yet)`;
  if (!forced) return `${name}: incremental`;
  if (force) return `${name}: --force (asked)`;
  if (stale[0] === NO_RECORD)
    return `${name}: --force (no record of its watched files: stryker/incremental/${name}.watch.json)`;
  const shown =
    stale.slice(0, 5).join(", ") + (stale.length > 5 ? `, and ${stale.length - 5} more` : "");
  return `${name}: --force (watched files changed since its last run: ${shown})`;
}

function incrementalFile(name) {
  return join(root, "stryker/incremental", `${name}.json`);
}
function watchFile(name) {
  return join(root, "stryker/incremental", `${name}.watch.json`);
}

/** The files of the project: tracked, and untracked but not ignored (listed once). */
function listProjectFiles() {
  if (listProjectFiles.files) return listProjectFiles.files;
  const ls = spawnSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
  });
  if (ls.status !== 0) fail(`git ls-files failed: ${ls.stderr}`);
  listProjectFiles.files = [...new Set(ls.stdout.split("\n").filter(Boolean))].sort();
  return listProjectFiles.files;
}

/**
 * The sha-256 of each file the group watches that Stryker does not follow itself (its `watch`,
 * less its mutated and test files), by path.
 */
function watchedHashes(name) {
  const g = groups[name];
  const own = [...g.mutate, ...g.tests];
  const hashes = {};
  for (const f of listProjectFiles()) {
    if (!g.watch.some((p) => matchesGlob(f, p)) || own.some((p) => matchesGlob(f, p))) continue;
    if (!existsSync(join(root, f))) continue; // deleted in the work tree: counted as changed
    hashes[f] = createHash("sha256")
      .update(readFileSync(join(root, f)))
      .digest("hex");
  }
  return hashes;
}

/**
 * Why the group's last results may be stale: the watched files added, removed or changed since its
 * last run, or that there is no record of them. None when it has no incremental file (all run).
 */
function staleWatched(name, now) {
  if (!existsSync(incrementalFile(name))) return [];
  if (!existsSync(watchFile(name))) return [NO_RECORD];
  const before = JSON.parse(readFileSync(watchFile(name), "utf8")).files ?? {};
  const paths = new Set([...Object.keys(before), ...Object.keys(now)]);
  return [...paths].filter((p) => before[p] !== now[p]).sort();
}

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
  // From where the work tree's branch left BASE to the work tree, uncommitted changes included
  // (`git diff BASE...` would compare with HEAD only).
  const since = spawnSync("git", ["merge-base", base, "HEAD"], { cwd: root, encoding: "utf8" });
  if (since.status !== 0) fail(`git merge-base ${base} HEAD failed: ${since.stderr}`);
  const diff = spawnSync("git", ["diff", "--name-only", since.stdout.trim()], {
    cwd: root,
    encoding: "utf8",
  });
  if (diff.status !== 0) fail(`git diff ${since.stdout.trim()} failed: ${diff.stderr}`);
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
