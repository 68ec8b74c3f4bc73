/**
 * A run's limits — a token budget, a deadline, the caller's cancel — stop it with an error that
 * says which, keep every checkpoint written before, and leave a run that resumes from there.
 * And what the executor returns about config keeps secrets out.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createExecutor } from "../../src/run/executor.js";
import { closeAfterAll } from "../support/close-after-all.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-limits-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));
const sideEffects = join(dir, "side-effects.log");
writeFileSync(sideEffects, "");
writeFileSync(
  join(dir, "step.mjs"),
  `import { appendFileSync } from "node:fs";
export default async (state) => {
  const n = state.done.length + 1;
  // The test picks a step that takes long, so a limit surely falls inside it.
  await new Promise((r) => setTimeout(r, globalThis.slowStep === n ? 10_000 : 20));
  appendFileSync(${JSON.stringify(sideEffects)}, "step " + n + "\\n");
  return { done: [n] };
};
`,
);
writeFileSync(
  join(dir, "leak.mjs"),
  `export default (state, runtime) => {
  throw new Error("the service refused token " + runtime.context.api_token);
};
`,
);
writeFileSync(
  join(dir, "graphs", "chain.yaml"),
  `version: 1
name: chain
state:
  done: { type: array, items: { type: integer }, reducer: append, default: [] }
nodes:
  s1: { kind: function, module: ../step.mjs }
  s2: { kind: function, module: ../step.mjs }
  s3: { kind: function, module: ../step.mjs }
edges:
  - { from: START, to: s1 }
  - { from: s1, to: s2 }
  - { from: s2, to: s3 }
  - { from: s3, to: END }
`,
);
writeFileSync(
  join(dir, "graphs", "leak.yaml"),
  `version: 1
name: leak
state:
  done: { type: boolean }
context:
  api_token: { type: string }
  user_id: { type: string }
nodes:
  call: { kind: function, module: ../leak.mjs }
edges:
  - { from: START, to: call }
  - { from: call, to: END }
`,
);
const slowStep = (n: number | undefined) => {
  (globalThis as { slowStep?: number }).slowStep = n;
};
const steps = () => readFileSync(sideEffects, "utf8").trim().split("\n").filter(Boolean);
const sqlitePath = join(dir, "state.db");
const closing = closeAfterAll();
const executor = (scripts?: Record<string, unknown[]>) =>
  closing(
    createExecutor({
      dir: join(dir, "graphs"),
      sqlitePath,
      ...(scripts ? { scripts: scripts as never } : {}),
    }),
  );

const triage = join(import.meta.dirname, "..", "..", "graphs", "support-triage.yaml");
const turn = (input: number, output: number) => ({
  usage: { input_tokens: input, output_tokens: output },
});
const classify = { structured: { priority: "low", reason: "billing" }, ...turn(20, 5) };
const lookup = {
  tool_calls: [{ name: "lookup_ticket", args: { ticket_id: "T-7" } }],
  ...turn(30, 6),
};
const answer = { text: "It is open.", ...turn(40, 4) };

describe("a token budget", () => {
  it("stops the run after the model call that passes it; a resume with a larger one finishes", async () => {
    // The agent's first call is made again when its node starts again: the script says so.
    const script = { "support-triage": [classify, lookup, lookup, answer] };
    const first = executor(script);
    const stopped = await first.run(triage, {
      input: { ticket: "T-7" },
      threadId: "budget",
      context: { user_id: "u-1" },
      maxTokens: 50,
    });
    expect(stopped).toMatchObject({
      status: "failed",
      error: { code: "budget-exceeded", phase: "run" },
      // classify (25 tokens) finished; the agent's first call (36) passed the budget.
      usage: { totalTokens: 61 },
      next: ["investigate"],
      output: { priority: "low", notes: ["billing"] },
    });
    expect(stopped.error!.message).toMatch(/61 tokens, over its budget of 50/);
    expect(stopped.error!.hint).toMatch(/--max-tokens/);

    // A new process, given the same script: the agent node starts again and takes the turns
    // after the two the thread's run took; classify does not run a second time.
    const second = executor(script);
    const done = await second.resume(triage, { threadId: "budget", maxTokens: 500 });
    expect(done).toMatchObject({
      status: "completed",
      usage: { totalTokens: 80 },
      output: { priority: "low", notes: ["billing"] },
    });
  });

  it("is not reached by a run within it", async () => {
    const exec = executor({ "support-triage": [classify, lookup, answer] });
    const done = await exec.run(triage, {
      input: { ticket: "T-8" },
      context: { user_id: "u-1" },
      maxTokens: 105,
    });
    expect(done).toMatchObject({ status: "completed", usage: { totalTokens: 105 } });
  });
});

describe("a deadline", () => {
  it("stops the run between checkpoints; a resume goes on without repeating finished nodes", async () => {
    writeFileSync(sideEffects, "");
    const exec = executor();
    slowStep(2);
    const stopped = await exec.run("chain", { threadId: "deadline", deadline: 1000 });
    slowStep(undefined);
    expect(stopped).toMatchObject({
      status: "failed",
      error: { code: "deadline-exceeded", phase: "run" },
      output: { done: [1] },
      next: ["s2"],
    });
    const done = await exec.resume("chain", { threadId: "deadline" });
    expect(done).toMatchObject({ status: "completed", output: { done: [1, 2, 3] } });
    expect(steps().filter((s) => s === "step 1")).toHaveLength(1);
  });

  it("already passed (a point in time) stops the run before any node finishes", async () => {
    writeFileSync(sideEffects, "");
    const stopped = await executor().run("chain", { deadline: new Date(Date.now() - 1000) });
    expect(stopped).toMatchObject({ status: "failed", error: { code: "deadline-exceeded" } });
    expect(steps()).toEqual([]);
  });
});

describe("cancelling", () => {
  it("through the caller's signal is `cancelled`, and the run resumes from its last checkpoint", async () => {
    writeFileSync(sideEffects, "");
    const exec = executor();
    const controller = new AbortController();
    slowStep(2);
    const stopped = exec.run("chain", { threadId: "cancel", signal: controller.signal });
    // Cancel during the second node.
    while (!steps().includes("step 1")) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 200));
    controller.abort();
    const result = await stopped;
    slowStep(undefined);
    expect(result).toMatchObject({
      status: "failed",
      error: { code: "cancelled", phase: "run" },
      next: ["s2"],
    });
    const done = await exec.resume("chain", { threadId: "cancel" });
    expect(done).toMatchObject({ status: "completed", output: { done: [1, 2, 3] } });
  });
});

describe("errors name their phase and node", () => {
  it("a function's own error names the node that threw it", async () => {
    const r = await executor().run("leak", { context: { api_token: "tok-zz-1234567" } });
    expect(r.error).toMatchObject({ code: "node-error", phase: "node", node: "call" });
  });

  it("a refused input is the input phase", async () => {
    const r = await executor().run("chain", { input: { nope: 1 } });
    expect(r.error).toMatchObject({ code: "invalid-input", phase: "input" });
  });
});

describe("secrets", () => {
  it("never appear in a returned error, and are not stored with the thread", async () => {
    const exec = executor();
    const r = await exec.run("leak", {
      threadId: "secret",
      context: { api_token: "tok-zz-1234567", user_id: "u-9" },
    });
    expect(r.error!.message).toBe("the service refused token ***");
    expect(JSON.stringify(r)).not.toContain("tok-zz-1234567");
    expect(await exec.contextOf("secret")).toEqual({ user_id: "u-9" });
    expect(readFileSync(sqlitePath).includes("tok-zz-1234567")).toBe(false);
  });

  it("from the environment the models read are scrubbed too", async () => {
    writeFileSync(
      join(dir, "env-leak.mjs"),
      `export default () => { throw new Error("auth failed with sk-live-abcdef123"); };\n`,
    );
    writeFileSync(
      join(dir, "graphs", "env-leak.yaml"),
      `version: 1
name: env-leak
state:
  done: { type: boolean }
nodes:
  call: { kind: function, module: ../env-leak.mjs }
edges:
  - { from: START, to: call }
  - { from: call, to: END }
`,
    );
    const exec = createExecutor({
      dir: join(dir, "graphs"),
      checkpointer: "memory",
      env: { OPENAI_API_KEY: "sk-live-abcdef123" },
    });
    const r = await exec.run("env-leak");
    expect(r.error!.message).toBe("auth failed with ***");
  });
});

describe("the context stored with a thread", () => {
  it("is used again by a resume that does not give it", async () => {
    const exec = executor({
      "support-triage": [{ structured: { priority: "urgent", reason: "x" } }],
    });
    const paused = await exec.run(triage, {
      input: { ticket: "T-3" },
      threadId: "ctx",
      context: { user_id: "u-77" },
    });
    expect(paused.status).toBe("interrupted");
    const done = await exec.resume(triage, { threadId: "ctx", value: true });
    expect(done.output.notes).toEqual(["x", "sent to u-77: Your ticket is urgent."]);
  });
});
