/**
 * The differential test of graphspec's promise: a spec that `validate` passes compiles, and fails at
 * run time only for reasons of its data, never of its structure. Random specs
 * (test/support/spec-generator.ts) go through `validate`; each one with no error is compiled
 * (the package entry's `compile`) and run a few steps through `createExecutor` with a scripted
 * model, resumed when it pauses. Any failure outside the oracle below fails the test, with the
 * shrunk spec printed as YAML.
 *
 * Bounded for CI: seed 13 and 250 cases, no new case after 35 s. To run long:
 * `GRAPHSPEC_FUZZ_RUNS=5000 GRAPHSPEC_FUZZ_SEED=7 npx vitest run test/differential.test.ts`
 * (docs/testing.md).
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
import { FUZZ_MODULES, type FuzzCase, fuzzCase } from "./support/spec-generator.js";

const RUNS = Number(process.env.GRAPHSPEC_FUZZ_RUNS ?? 250);
const SEED = Number(process.env.GRAPHSPEC_FUZZ_SEED ?? 13);
/** Long local runs set their own budget; CI stops generating new cases after this long. */
const TIME_LIMIT_MS = Number(process.env.GRAPHSPEC_FUZZ_TIME_MS ?? 35_000);
/**
 * For triage: a file to append every failing case to (one JSON line: the failure and the files),
 * instead of stopping at the first. tools/fuzz-survey.mjs groups them by class, smallest first.
 */
const SURVEY = process.env.GRAPHSPEC_FUZZ_SURVEY;
/** For triage: failures whose text matches this regex count as passes, so the next class shrinks. */
const SKIP = process.env.GRAPHSPEC_FUZZ_SKIP
  ? new RegExp(process.env.GRAPHSPEC_FUZZ_SKIP)
  : undefined;

const dir = mkdtempSync(join(tmpdir(), "graphspec-differential-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), "{}");
const graphs = join(dir, "graphs");
mkdirSync(graphs);
for (const [file, text] of Object.entries(FUZZ_MODULES)) writeFileSync(join(graphs, file), text);

/**
 * The oracle: failures that are the data's, not the spec's structure. A code not listed fails the
 * test; a listed code with a condition fails it when the condition does not hold.
 */
const DATA_FAILURES: Record<string, (r: RunResult, c: FuzzCase) => boolean> = {
  // A loop that does not end (routes back on a condition the data never meets).
  "recursion-limit": () => true,
  // An expression failing on a value: a channel not yet written, a wrong type inside `any`.
  expression: () => true,
  "expression-limit": () => true,
  // A route without `default` (validate warns) where no case matched this state.
  "route-no-match": () => true,
  // The scripted model's answer did not match `output.schema` (the script is data).
  "invalid-output": () => true,
  // The `fail` tool, or arguments computed at run time that its schema refuses.
  "tool-error": () => true,
  // A function's return is unknown to validate: `stray` writes a key that is not a channel,
  // `bump`/`say` write a value the channel's type refuses; a value computed by an expression
  // into a channel whose narrowing keywords (an enum) refuse it.
  "invalid-write": () => true,
  // Two function nodes without `writes` (their writes unknown) writing one channel in a step.
  "parallel-write": (_r, c) => hasFunctionWithoutWrites(c),
  // (also: the `fail` reducer of reducers.mjs, a reducer of the spec's own that throws)
  // The script ran out or did not fit (a text turn where a structured answer is asked), a turn
  // was a scripted failure, a module failed on purpose, or the resume value of an agent's
  // approval was not a decision (the caller's data; see the report of issue 13).
  "node-error": (r) => isDeliberate(r.error?.message ?? ""),
  // A child spec failing: data when the child's own failure is (its message is kept).
  subgraph: (r) => DATA_MESSAGE.test(r.error?.message ?? ""),
};

/**
 * Messages of the failures above, as a child's failure carries them into the parent's `subgraph`
 * error. A child's node writing a bad value (`node \`x\` wrote …`) is data like the parent's
 * `invalid-write`; the parent's values refused as the child's input (`the run's input wrote …`)
 * are structure (issue 13, class 5).
 */
const DATA_MESSAGE =
  /has no answer left|was asked for a structured answer|deliberate|Invalid HITLResponse|Recursion limit|recursion limit|expression|no case of the route|did not match|invalid-output|node `[^`]+` wrote|refused|tool `/i;

const isDeliberate = (message: string) =>
  /has no answer left|was asked for a structured answer|deliberate|Invalid HITLResponse/.test(
    message,
  );

const hasFunctionWithoutWrites = (c: FuzzCase): boolean =>
  [c.spec, ...Object.values(c.children)].some((s) =>
    Object.values((s.nodes ?? {}) as Record<string, { kind?: string; writes?: unknown }>).some(
      (n) => n.kind === "function" && n.writes === undefined,
    ),
  );

let caseNumber = 0;
/** Cases that passed validate and so were compiled and run: the test must reach run time. */
let validCases = 0;
/** How the runs ended (a status, or a failure's code), printed in survey mode. */
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

/** What went wrong with a case, or undefined when it held: validate, compile, then run and resume. */
async function check(c: FuzzCase): Promise<string | undefined> {
  const path = writeCase(c);
  const diagnostics = await validate(await readSpec(path, { root: dir }));
  if (diagnostics.some((d) => d.severity === "error")) return undefined;
  validCases++;
  try {
    await compile(path, { scripts: { fuzz: c.script as ScriptedTurn[] } });
  } catch (e) {
    return `compile failed: ${(e as Error).message}`;
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
    tally(result.status === "failed" ? (result.error?.code ?? "(no code)") : result.status);
    if (result.status !== "failed") return undefined;
    const code = result.error?.code ?? "(no code)";
    if (DATA_FAILURES[code]?.(result, c)) return undefined;
    return `run failed on its structure: ${JSON.stringify(result.error)}`;
  } catch (e) {
    return `threw: ${(e as Error)?.stack ?? String(e)}`;
  } finally {
    await exec.close();
  }
}

describe("differential: what validate passes compiles and runs", () => {
  it(
    "fails only on its data",
    async () => {
      const property = fc.asyncProperty(fuzzCase, async (c) => {
        const failure = await check(c);
        if (failure === undefined || SKIP?.test(failure)) return;
        if (SURVEY) {
          appendFileSync(SURVEY, `${JSON.stringify({ failure, case: c })}\n`);
          return;
        }
        const files = Object.entries(c.children)
          .map(([f, s]) => `--- ${f}\n${stringify(s)}`)
          .join("");
        throw new Error(
          `${failure}\n--- parent.yaml\n${stringify(c.spec)}${files}--- script\n${stringify(c.script)}--- resumes\n${stringify(c.resumes)}`,
        );
      });
      await fc.assert(property, {
        numRuns: RUNS,
        seed: SEED,
        interruptAfterTimeLimit: TIME_LIMIT_MS,
        markInterruptAsFailure: false,
      });
      if (SURVEY) {
        const ends = [...outcomes].map(([k, n]) => `${k} ${n}`).join(", ");
        console.info(`${caseNumber} specs, ${validCases} validate-clean; runs: ${ends}`);
      }
      // A generator that stopped producing valid specs would test nothing (with issue 13's rules
      // about a sixth of the generated specs pass validate).
      expect(validCases).toBeGreaterThan(caseNumber / 10);
    },
    TIME_LIMIT_MS * 3,
  );
});
