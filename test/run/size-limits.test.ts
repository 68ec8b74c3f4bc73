/**
 * The bounds on what a run is given and what it may spend, exactly at and one past each, through
 * the package entry's executor (src/run/size-limits.ts, src/run/limits.ts): an input, a context
 * and a resume value of exactly their limit run, one byte more is refused with `input-too-large`
 * and nothing stored; a `__proto__` key anywhere is refused at its path; a run whose model calls
 * use exactly its token budget finishes, one token more stops it after that call. Quick: the
 * mutation group `size-limits` runs it for each mutant (docs/testing.md#mutation-testing).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createExecutor, type ExecutorOptions } from "../../src/index.js";
import { closeAfterAll } from "../support/close-after-all.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-size-limits-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));
writeFileSync(
  join(dir, "graphs", "keep.yaml"),
  `version: 1
name: keep
state:
  data: { type: any }
  more: { type: any }
  answer: { type: any }
context:
  note: { type: any }
nodes:
  ask: { kind: interrupt, payload: { question: "?" }, write: answer }
edges:
  - { from: START, to: ask }
  - { from: ask, to: END }
`,
);
writeFileSync(
  join(dir, "graphs", "talk.yaml"),
  `version: 1
name: talk
state:
  messages: { type: messages }
models:
  default: { model: "scripted:talk" }
nodes:
  first: { kind: llm, prompt: One. }
  second: { kind: llm, prompt: Two. }
edges:
  - { from: START, to: first }
  - { from: first, to: second }
  - { from: second, to: END }
`,
);

writeFileSync(
  join(dir, "step.mjs"),
  // The test's hook runs inside the first node: a cancel while a run is in a node.
  "export default () => { globalThis.duringStep?.(); return { n: 1 }; };\n",
);
writeFileSync(
  join(dir, "graphs", "steps.yaml"),
  `version: 1
name: steps
state:
  n: { type: integer, reducer: sum, default: 0 }
nodes:
  one: { kind: function, module: ../step.mjs }
  two: { kind: function, module: ../step.mjs }
edges:
  - { from: START, to: one }
  - { from: one, to: two }
  - { from: two, to: END }
`,
);

const closing = closeAfterAll();
const executor = (options: ExecutorOptions = {}) =>
  closing(createExecutor({ dir: join(dir, "graphs"), checkpointer: "memory", ...options }));
const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
let threads = 0;
const thread = () => `t${++threads}`;

const tooLarge = (subject: string, limit: string, option: string, flag: string) => ({
  code: "input-too-large",
  phase: "input",
  message: `${subject} is larger than its limit of ${limit}; nothing was run or stored`,
  hint: `send less (large documents belong in a store the graph reads by reference), or raise the executor's \`${option}\` (CLI: ${flag})`,
});
const inputTooLarge = (limit: string) =>
  tooLarge("the run's input", limit, "maxInputBytes", "--max-input-bytes");

/** Inputs of every kind of JSON value, each measured as its JSON's bytes. */
const INPUTS: Record<string, unknown>[] = [
  { data: "héllo, wörld ✓" },
  { data: [1, true, null, "a", { k: false }], more: -12.5 },
  { data: { a: { ké: [[1], [2, 3]] }, b: "" }, more: 1e21 },
];

describe("a run's input", () => {
  it.each(INPUTS)(
    "of exactly maxInputBytes runs; one byte less of limit refuses it (%j)",
    async (input) => {
      const n = bytes(input);
      const at = await executor({ maxInputBytes: n }).run("keep", { threadId: thread(), input });
      expect(at.status).toBe("interrupted");
      const exec = executor({ maxInputBytes: n - 1 });
      const threadId = thread();
      const over = await exec.run("keep", { threadId, input });
      expect(over.status).toBe("failed");
      expect(over.error).toEqual(inputTooLarge(`${n - 1} bytes`));
      expect(await exec.inspect(threadId, "keep")).toMatchObject({ checkpointId: undefined });
    },
  );

  it("names its limit in bytes, KiB or MiB", async () => {
    const input = { data: "x".repeat(2 * 1024 * 1024) };
    const cases: [number, string][] = [
      [1023, "1023 bytes"],
      [1024, "1 KiB"],
      [1536, "1.5 KiB"],
      [1024 * 1024 - 1, "1024 KiB"],
      [1024 * 1024, "1 MiB"],
      [1.5 * 1024 * 1024, "1.5 MiB"],
    ];
    for (const [limit, shown] of cases) {
      const r = await executor({ maxInputBytes: limit }).run("keep", { threadId: thread(), input });
      expect(r.error).toEqual(inputTooLarge(shown));
    }
  });

  it("is bounded by 1 MiB when no limit is given", async () => {
    const input = (n: number) => {
      const head = { data: "" };
      return { data: "x".repeat(n - bytes(head)) };
    };
    expect(bytes(input(1024 * 1024))).toBe(1024 * 1024);
    const exec = executor();
    const at = await exec.run("keep", { threadId: thread(), input: input(1024 * 1024) });
    expect(at.status).toBe("interrupted");
    const over = await exec.run("keep", { threadId: thread(), input: input(1024 * 1024 + 1) });
    expect(over.error).toEqual(inputTooLarge("1 MiB"));
  });

  it("with a `__proto__` key anywhere is refused at its path", async () => {
    const cases: [string, string][] = [
      ['{"__proto__": {"polluted": true}}', "__proto__"],
      ['{"data": {"a": [1, {"__proto__": 1}]}}', "data.a[1].__proto__"],
      ['{"data": [[{"__proto__": null}]]}', "data[0][0].__proto__"],
    ];
    for (const [json, field] of cases) {
      const exec = executor();
      const threadId = thread();
      const r = await exec.run("keep", { threadId, input: JSON.parse(json) });
      expect(r.error).toEqual({
        code: "invalid-input",
        phase: "input",
        message: `the run's input has a key \`__proto__\` (at \`${field}\`), which could give stored data a foreign prototype`,
        hint: "rename the key",
        field,
      });
      expect(await exec.inspect(threadId, "keep")).toMatchObject({ checkpointId: undefined });
    }
  });
});

describe("a run's context", () => {
  it("of exactly maxInputBytes runs; one byte more is refused as the context", async () => {
    const context = { note: ["ü", 7, { x: null }] };
    const n = bytes(context);
    const input = { data: 1 };
    const at = await executor({ maxInputBytes: n }).run("keep", {
      threadId: thread(),
      input,
      context,
    });
    expect(at.status).toBe("interrupted");
    const over = await executor({ maxInputBytes: n - 1 }).run("keep", {
      threadId: thread(),
      input,
      context,
    });
    expect(over.error).toEqual(
      tooLarge("the run's context", `${n - 1} bytes`, "maxInputBytes", "--max-input-bytes"),
    );
  });

  it("none is an empty one: it fits any limit an input fits", async () => {
    // `{}` is a byte as measured; no context at all would be more (`undefined`, 9).
    const r = await executor({ maxInputBytes: 8 }).run("keep", { threadId: thread(), input: {} });
    expect(r.status).toBe("interrupted");
  });

  it("with a `__proto__` key is refused as the context's", async () => {
    const r = await executor().run("keep", {
      threadId: thread(),
      context: JSON.parse('{"note": {"__proto__": 1}}'),
    });
    expect(r.error).toEqual({
      code: "invalid-input",
      phase: "input",
      message:
        "the run's context has a key `__proto__` (at `note.__proto__`), which could give stored data a foreign prototype",
      hint: "rename the key",
      field: "note.__proto__",
    });
  });
});

describe("a resume value", () => {
  it("of exactly maxResumeBytes resumes; one byte more is refused and the thread stays paused", async () => {
    const value = { answer: ["é", 1, true] };
    const n = bytes(value);
    // The input limit is larger: a resume value is held to its own.
    const exec = executor({ maxResumeBytes: n - 1, maxInputBytes: 10 * n });
    const threadId = thread();
    expect((await exec.run("keep", { threadId })).status).toBe("interrupted");
    const before = await exec.inspect(threadId, "keep");
    const over = await exec.resume("keep", { threadId, value });
    expect(over.error).toEqual(
      tooLarge("the resume value", `${n - 1} bytes`, "maxResumeBytes", "--max-resume-bytes"),
    );
    expect(await exec.inspect(threadId, "keep")).toEqual(before);
    const fits = executor({ maxResumeBytes: n, maxInputBytes: 1 });
    const threadId2 = thread();
    expect((await fits.run("keep", { threadId: threadId2 })).status).toBe("interrupted");
    const done = await fits.resume("keep", { threadId: threadId2, value });
    expect(done).toMatchObject({ status: "completed", output: { answer: value } });
  });

  it("is bounded by 1 MiB when no limit is given, and refused at a `__proto__` key", async () => {
    const exec = executor();
    const threadId = thread();
    await exec.run("keep", { threadId });
    const over = await exec.resume("keep", { threadId, value: "x".repeat(1024 * 1024 - 1) });
    expect(over.error).toEqual(
      tooLarge("the resume value", "1 MiB", "maxResumeBytes", "--max-resume-bytes"),
    );
    const proto = await exec.resume("keep", { threadId, value: JSON.parse('[{"__proto__": 1}]') });
    expect(proto.error).toMatchObject({
      code: "invalid-input",
      message:
        "the resume value has a key `__proto__` (at `[0].__proto__`), which could give stored data a foreign prototype",
      field: "[0].__proto__",
    });
    const at = await exec.resume("keep", { threadId, value: "x".repeat(1024 * 1024 - 2) });
    expect(at.status).toBe("completed");
  });
});

describe("a token budget", () => {
  const turn = (text: string, input: number, output: number) => ({
    text,
    usage: { input_tokens: input, output_tokens: output },
  });
  const scripts = { talk: [turn("one", 20, 5), turn("two", 10, 5)] };

  it("used exactly lets the run finish; one token less stops it after the call that passed it", async () => {
    const exact = await executor({ scripts: scripts as never }).run("talk", {
      threadId: thread(),
      maxTokens: 40,
    });
    expect(exact.status).toBe("completed");
    const exec = executor({ scripts: scripts as never });
    const threadId = thread();
    const over = await exec.run("talk", { threadId, maxTokens: 39 });
    // Stopped after the second call, its step not stored: the thread stands before `second`.
    expect(over).toMatchObject({ status: "failed", next: ["second"], usage: { totalTokens: 40 } });
    expect((over.output as { messages: unknown[] }).messages).toHaveLength(2);
    expect(over.error).toEqual({
      code: "budget-exceeded",
      phase: "run",
      message: "the run used 40 tokens, over its budget of 39",
      hint: "resume the thread with a larger budget (--max-tokens) to go on from its last checkpoint; the node that was running starts again",
    });
  });
});

describe("a deadline and a cancel", () => {
  const hooks = globalThis as { duringStep?: () => void };
  afterAll(() => {
    hooks.duringStep = undefined;
  });

  it("a deadline already passed stops the run before its first node, named with its time", async () => {
    const deadline = new Date(Date.now() - 1000);
    const r = await executor().run("steps", { threadId: thread(), deadline });
    // Stopped before anything was stored.
    expect(r).toMatchObject({ status: "failed", next: [], output: {} });
    expect(r.error).toEqual({
      code: "deadline-exceeded",
      phase: "run",
      message: `the run passed its deadline (${deadline.toISOString()})`,
      hint: "resume the thread to go on from its last checkpoint, with a later deadline",
    });
  });

  it("a deadline of 0 ms stops it at once, named in ms", async () => {
    const r = await executor().run("steps", { threadId: thread(), deadline: 0 });
    expect(r.error).toMatchObject({
      code: "deadline-exceeded",
      message: "the run passed its deadline (0 ms)",
    });
  });

  it("a deadline beyond a timer's reach (2^31 ms, 24.8 days) does not fire at once", async () => {
    // A longer delay than a timer takes fires after 1 ms, with Node's TimeoutOverflowWarning.
    const warnings: string[] = [];
    const warned = (w: Error) => warnings.push(w.name);
    process.on("warning", warned);
    const far = 2 ** 32;
    expect((await executor().run("steps", { threadId: thread(), deadline: far })).status).toBe(
      "completed",
    );
    const date = new Date(Date.now() + far);
    expect((await executor().run("steps", { threadId: thread(), deadline: date })).status).toBe(
      "completed",
    );
    await new Promise((r) => setImmediate(r));
    process.off("warning", warned);
    expect(warnings).not.toContain("TimeoutOverflowWarning");
  });

  it("a signal aborted before the run starts, or during a node, cancels it at that step", async () => {
    const cancelled = {
      code: "cancelled",
      phase: "run",
      message: "the run was cancelled",
      hint: "resume the thread to go on from its last checkpoint",
    };
    const before = new AbortController();
    before.abort();
    const r = await executor().run("steps", { threadId: thread(), signal: before.signal });
    expect(r).toMatchObject({ status: "failed", next: [], output: {} });
    expect(r.error).toEqual(cancelled);
    const during = new AbortController();
    hooks.duringStep = () => during.abort();
    const exec = executor();
    const threadId = thread();
    const stopped = await exec.run("steps", { threadId, signal: during.signal });
    hooks.duringStep = undefined;
    expect(stopped).toMatchObject({ status: "failed", next: ["one"], output: { n: 0 } });
    expect(stopped.error).toEqual(cancelled);
    expect(await exec.resume("steps", { threadId })).toMatchObject({
      status: "completed",
      output: { n: 2 },
    });
  });
});
