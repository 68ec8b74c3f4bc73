/**
 * The differential test of graphspec's promise: a spec that `validate` passes compiles, and fails at
 * run time only for reasons of its data, never of its structure. Random specs
 * (test/support/spec-generator.ts) go through `validate`; each one with no error is compiled
 * (the package entry's `compile`) and run a few steps through `createExecutor` with a scripted
 * model, resumed when it pauses. The oracle (test/support/differential-oracle.ts) classes each
 * failure as the data's or the structure's; a structural one fails the test, with the shrunk spec
 * printed as YAML.
 *
 * Bounded for CI: seed 13 and 250 cases, no new case after 35 s. In the suite's long mode
 * (`GRAPHSPEC_LONG=1`): 10,000 cases over three seeds, every failure collected and counted by
 * class, the smallest case of each class printed with its seed (docs/testing.md).
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import {
  compile,
  createExecutor,
  type RunResult,
  readSpec,
  type ScriptedTurn,
  validate,
} from "../src/index.js";
import { judge, type Verdict } from "./support/differential-oracle.js";
import { FUZZ_MODULES, type FuzzCase, fuzzCaseOf } from "./support/spec-generator.js";

const env = process.env;
/** Long mode: many cases over several seeds, every failure collected and counted by class. */
const LONG = Boolean(env.GRAPHSPEC_LONG);
const SEEDS = (env.GRAPHSPEC_FUZZ_SEEDS ?? env.GRAPHSPEC_FUZZ_SEED ?? (LONG ? "7,13,29" : "13"))
  .split(",")
  .map(Number);
/** Cases in all, shared among the seeds. */
const RUNS = Number(env.GRAPHSPEC_FUZZ_RUNS ?? (LONG ? 10_000 : 250));
/** Stop generating new cases of a seed after this long (CI: 35 s; long mode: an hour). */
const TIME_LIMIT_MS = Number(env.GRAPHSPEC_FUZZ_TIME_MS ?? (LONG ? 3_600_000 : 35_000));
/** The weight of issue 24's hazardous shapes in the generator (0: none; see spec-generator.ts). */
const HAZARD = Number(env.GRAPHSPEC_FUZZ_HAZARD ?? 3);
/**
 * For triage: a file to append every failing case to (one JSON line: the failure and the files),
 * instead of stopping at the first. scripts/fuzz-survey.mjs groups them by class, smallest first.
 */
const SURVEY = env.GRAPHSPEC_FUZZ_SURVEY;
/** For triage: failures whose text matches this regex count as passes, so the next class shrinks. */
const SKIP = env.GRAPHSPEC_FUZZ_SKIP ? new RegExp(env.GRAPHSPEC_FUZZ_SKIP) : undefined;
/**
 * Structural classes whose validate rules are on their way (issue 24): counted and printed, but
 * they fail only long mode, so CI stays green until the rules land. Remove each class as its rule
 * lands; the list must end empty.
 */
const PENDING: RegExp[] = [];

const dir = mkdtempSync(join(tmpdir(), "graphspec-differential-"));
// Long mode leaves thousands of files: removing them takes longer than a hook's default 10 s.
afterAll(() => rmSync(dir, { recursive: true, force: true }), 120_000);
writeFileSync(join(dir, "package.json"), "{}");
const graphs = join(dir, "graphs");
mkdirSync(graphs);
for (const [file, text] of Object.entries(FUZZ_MODULES)) writeFileSync(join(graphs, file), text);

let caseNumber = 0;
/** Cases that passed validate and so were compiled and run: the test must reach run time. */
let validCases = 0;
/** How the runs of a seed ended (a status, or a failure's class), printed when collecting. */
const outcomes = new Map<string, number>();
const tally = (outcome: string) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);

/** Writes the case's files; returns the parent spec's path. */
function writeCase(c: FuzzCase): string {
  const folder = join(graphs, `c${++caseNumber}`);
  mkdirSync(folder);
  for (const [file, spec] of Object.entries(c.children))
    writeFileSync(join(folder, file), stringify(spec));
  const path = join(folder, "parent.yaml");
  writeFileSync(path, stringify(c.spec));
  return path;
}

/** A failure of a case: its class, and the text to print. */
interface Failure {
  kind: string;
  text: string;
}

/** What went wrong with a case, or undefined when it held: validate, compile, then run and resume. */
async function check(c: FuzzCase): Promise<Failure | undefined> {
  const path = writeCase(c);
  const diagnostics = await validate(await readSpec(path, { root: dir }));
  if (diagnostics.some((d) => d.severity === "error")) return undefined;
  validCases++;
  try {
    await compile(path, { scripts: { fuzz: c.script as ScriptedTurn[] } });
  } catch (e) {
    return { kind: "compile", text: `compile failed: ${(e as Error).message}` };
  }
  const exec = createExecutor({
    dir: graphs,
    checkpointer: "memory",
    scripts: { fuzz: c.script as ScriptedTurn[] },
  });
  try {
    let result = await exec.run(path, { input: {} });
    for (const value of c.resumes) {
      if (result.status !== "interrupted") break;
      result = await exec.resume(path, { threadId: result.threadId, value });
    }
    if (result.status !== "failed") {
      tally(result.status);
      return undefined;
    }
    const verdict = await warned(judge(result, c), result, path);
    tally(`${verdict.structural ? "STRUCTURAL " : ""}${verdict.kind}`);
    if (!verdict.structural) return undefined;
    return {
      kind: verdict.kind,
      text: `run failed on its structure [${verdict.kind}]: ${JSON.stringify(result.error)}`,
    };
  } catch (e) {
    return { kind: "threw", text: `threw: ${(e as Error)?.stack ?? String(e)}` };
  } finally {
    await exec.close();
  }
}

/**
 * A static cycle through a node whose code may pause it (LangGraph's `interrupt()` in a function
 * or tool) is validate's warning, not its error: the spec said so, and the failure is not a hole.
 */
async function warned(verdict: Verdict, result: RunResult, parent: string): Promise<Verdict> {
  if (verdict.kind !== "static-cycle") return verdict;
  const file = result.error?.path?.length ? join(dirname(parent), "child.yaml") : parent;
  const diagnostics = await validate(await readSpec(file, { root: dir }));
  return diagnostics.some((d) => String(d.rule) === "endless-loop")
    ? { structural: false, kind: "static-cycle (validate warns)" }
    : verdict;
}

/** The case's files as YAML, after the failure. */
const printed = (c: FuzzCase, failure: Failure): string => {
  const files = Object.entries(c.children)
    .map(([f, s]) => `--- ${f}\n${stringify(s)}`)
    .join("");
  return `${failure.text}\n--- parent.yaml\n${stringify(c.spec)}${files}--- script\n${stringify(c.script)}--- resumes\n${stringify(c.resumes)}`;
};

const isPending = (kind: string) => PENDING.some((p) => p.test(kind));

/** Long mode's findings of one seed, by class: how many, and the smallest case. */
interface Found {
  n: number;
  size: number;
  text: string;
}

async function runSeed(seed: number, runs: number): Promise<void> {
  const collect = LONG || SURVEY !== undefined;
  const found = new Map<string, Found>();
  const before = { cases: caseNumber, valid: validCases };
  outcomes.clear();
  const property = fc.asyncProperty(fuzzCaseOf(HAZARD), async (c) => {
    const failure = await check(c);
    if (failure === undefined || SKIP?.test(failure.text)) return;
    if (SURVEY) appendFileSync(SURVEY, `${JSON.stringify({ failure: failure.text, case: c })}\n`);
    if (collect) {
      const size = JSON.stringify(c).length;
      const f = found.get(failure.kind);
      if (!f || size < f.size) found.set(failure.kind, { n: 0, size, text: printed(c, failure) });
      found.get(failure.kind)!.n = (f?.n ?? 0) + 1;
      return;
    }
    if (isPending(failure.kind)) return;
    throw new Error(printed(c, failure));
  });
  await fc.assert(property, {
    numRuns: runs,
    seed,
    interruptAfterTimeLimit: TIME_LIMIT_MS,
    markInterruptAsFailure: false,
  });
  const cases = caseNumber - before.cases;
  const valid = validCases - before.valid;
  if (collect) {
    const ends = [...outcomes].map(([k, n]) => `${k} ${n}`).join(", ");
    const classes = [...found].map(([k, f]) => `${k} ${f.n}`).join(", ") || "none";
    console.info(
      `seed ${seed}: ${cases} specs, ${valid} validate-clean; runs: ${ends}\nstructural failures: ${classes}`,
    );
    for (const [kind, f] of found)
      console.info(`--- smallest case of ${kind} (seed ${seed}):\n${f.text}`);
  }
  // A generator that stopped producing valid specs would test nothing. Stricter rules refuse
  // more of them: with issue 24's rules about one in twelve passes validate (one in seven before).
  expect(valid).toBeGreaterThan(cases / 20);
  if (LONG && !SURVEY) expect([...found.keys()]).toEqual([]);
}

describe("differential: what validate passes compiles and runs", () => {
  const runs = Math.ceil(RUNS / SEEDS.length);
  it.each(SEEDS)(
    "fails only on its data (seed %i)",
    (seed) => runSeed(seed, runs),
    TIME_LIMIT_MS * 3,
  );
});
