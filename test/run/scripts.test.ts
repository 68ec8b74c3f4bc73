/**
 * One meaning for scripted models: a script's turns belong to the thread's runs. A run on a new
 * thread starts at the first turn; a resume (or a later run on the thread) takes the turns after the
 * ones its earlier runs took — in this process or another; subgraphs share the run's script.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySaver, type StateSnapshot } from "@langchain/langgraph";
import { afterAll, describe, expect, it } from "vitest";
import { compile } from "../../src/index.js";
import { createExecutor } from "../../src/run/executor.js";

const tmp = mkdtempSync(join(tmpdir(), "graphspec-scripts-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
writeFileSync(join(tmp, "package.json"), "{}");
const dir = join(tmp, "graphs");
mkdirSync(dir);
const graph = (name: string, text: string) =>
  writeFileSync(join(dir, `${name}.yaml`), `version: 1\nname: ${name}\n${text}`);

graph(
  "ask-twice",
  `state:
  answers: { type: array, items: { type: string }, reducer: append, default: [] }
  ok: { type: boolean }
models:
  default: { model: "scripted:asker" }
nodes:
  first: { kind: llm, prompt: one, write: { answers: "\${{ [output.text] }}" } }
  check: { kind: interrupt, payload: { question: go on? }, write: ok }
  second: { kind: llm, prompt: two, write: { answers: "\${{ [output.text] }}" } }
edges:
  - { from: START, to: first }
  - { from: first, to: check }
  - { from: check, to: second }
  - { from: second, to: END }
`,
);
graph(
  "child",
  `state:
  answers: { type: array, items: { type: string }, reducer: append, default: [] }
models:
  default: { model: "scripted:shared" }
nodes:
  speak: { kind: llm, prompt: child, write: { answers: "\${{ [output.text] }}" } }
edges:
  - { from: START, to: speak }
  - { from: speak, to: END }
`,
);
graph(
  "parent",
  `state:
  answers: { type: array, items: { type: string }, reducer: append, default: [] }
models:
  default: { model: "scripted:shared" }
nodes:
  speak: { kind: llm, prompt: parent, write: { answers: "\${{ [output.text] }}" } }
  inner:
    kind: subgraph
    graph: ./child.yaml
    input: {}
    output: { answers: "\${{ output.answers }}" }
edges:
  - { from: START, to: speak }
  - { from: speak, to: inner }
  - { from: inner, to: END }
`,
);

graph(
  "three-calls",
  `state:
  topic: { type: string, default: "" }
  answers: { type: array, items: { type: string }, reducer: append, default: [] }
models:
  default: { model: "scripted:writer" }
nodes:
  one: { kind: llm, prompt: one, write: { answers: "\${{ [output.text] }}" } }
  two: { kind: llm, prompt: two, write: { answers: "\${{ [output.text] }}" } }
  inner:
    kind: subgraph
    graph: ./child.yaml
    input: {}
    output: { answers: "\${{ output.answers }}" }
edges:
  - { from: START, to: one }
  - { from: one, to: two }
  - { from: two, to: inner }
  - { from: inner, to: END }
`,
);

const twoTurns = { asker: ["first answer", "second answer"] };

describe("a script's turns belong to the thread's runs", () => {
  it("two runs of one executor on new threads each start at the first turn", async () => {
    const exec = createExecutor({ dir, checkpointer: "memory", scripts: { asker: ["only"] } });
    const one = await exec.run("ask-twice", { input: {} });
    const two = await exec.run("ask-twice", { input: {} });
    expect(one.output.answers).toEqual(["only"]);
    expect(two.output.answers).toEqual(["only"]);
  });

  it("a resume in another executor (another process) continues the same script", async () => {
    const sqlitePath = join(tmp, "resume.db");
    const first = createExecutor({ dir, checkpointer: "sqlite", sqlitePath, scripts: twoTurns });
    const paused = await first.run("ask-twice", { input: {}, threadId: "r1" });
    expect(paused).toMatchObject({ status: "interrupted", output: { answers: ["first answer"] } });
    await first.close();
    // The same script, given whole: the resume takes the turn after the ones the run took.
    const second = createExecutor({ dir, checkpointer: "sqlite", sqlitePath, scripts: twoTurns });
    const done = await second.resume("ask-twice", { threadId: "r1", value: true });
    expect(done).toMatchObject({
      status: "completed",
      output: { answers: ["first answer", "second answer"] },
    });
    await second.close();
  });

  it("a resume after a failed model call takes the next turn, not the failed one again", async () => {
    const scripts = { asker: [{ error: "the model fell over" }, "after the failure", "second"] };
    const sqlitePath = join(tmp, "failed.db");
    const first = createExecutor({ dir, checkpointer: "sqlite", sqlitePath, scripts });
    const failed = await first.run("ask-twice", { input: {}, threadId: "f1" });
    expect(failed).toMatchObject({ status: "failed", error: { node: "first" } });
    await first.close();
    const second = createExecutor({ dir, checkpointer: "sqlite", sqlitePath, scripts });
    const paused = await second.resume("ask-twice", { threadId: "f1" });
    expect(paused).toMatchObject({
      status: "interrupted",
      output: { answers: ["after the failure"] },
    });
    await second.close();
  });

  it("compile(): a subgraph shares the run's script, and each invoke is a run of its own", async () => {
    const built = await compile(join(dir, "parent.yaml"), {
      scripts: { shared: ["from the parent", "from the child"] },
    });
    const a = await built.invoke({});
    expect(a.answers).toEqual(["from the parent", "from the child"]);
    const b = await built.invoke({});
    expect(b.answers).toEqual(["from the parent", "from the child"]);
  });

  it("a run from an earlier checkpoint, or a fork of it, takes the turns its later steps took", async () => {
    // `writer` and the child's `shared` are one queue each: A, B for one and two, C for the child.
    const scripts = { writer: ["A", "B"], shared: ["C"] };
    const built = await compile(join(dir, "three-calls.yaml"), {
      scripts,
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "k1" } };
    expect((await built.invoke({}, config)).answers).toEqual(["A", "B", "C"]);
    const history: StateSnapshot[] = [];
    for await (const s of built.getStateHistory(config)) history.push(s);
    const at = (node: string) => history.find((s) => s.next.includes(node))!;
    // Forked before `two` with an edit: `two` takes B, as it did, and the child C.
    const fork = await built.updateState(at("two").config, { topic: "edited" });
    expect((await built.invoke(null, fork)).answers).toEqual(["A", "B", "C"]);
    // Run again from before the subgraph (no fork): the child takes its own turn again.
    expect((await built.invoke(null, at("inner").config)).answers).toEqual(["A", "B", "C"]);
    // From the first step: every turn again, in order.
    expect((await built.invoke(null, at("one").config)).answers).toEqual(["A", "B", "C"]);
  });

  it("a turn taken again answers with a message id of its own, as a provider's call would", async () => {
    graph(
      "chat",
      `state:
  messages: { type: messages }
models:
  default: { model: "scripted:chat" }
nodes:
  answer: { kind: llm, system: Answer briefly. }
edges:
  - { from: START, to: answer }
  - { from: answer, to: END }
`,
    );
    const built = await compile(join(dir, "chat.yaml"), {
      scripts: { chat: ["Hello."] },
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "ids" } };
    await built.invoke({ messages: [{ role: "user", content: "Hi" }] }, config);
    const history: StateSnapshot[] = [];
    for await (const s of built.getStateHistory(config)) history.push(s);
    const before = history.find((s) => s.next.includes("answer"))!;
    const first = (await built.getState(config)).values.messages.at(-1);
    const again = (await built.invoke(null, before.config)).messages.at(-1);
    // The same turn (a run from a checkpoint takes it again), a new answer: two branches of the
    // thread never hold one message id (the SDK's branching finds a message's checkpoint by it).
    expect(again.text).toBe(first.text);
    expect(again.id).not.toBe(first.id);
  });

  it("a fork before a step a pause cut in the middle takes that step's turns again", async () => {
    // ticket-agent's agent asks its model twice, then pauses for approval inside the same step.
    const turns = [
      { tool_calls: [{ name: "lookup_ticket", args: { ticket_id: "T-1001" } }] },
      { tool_calls: [{ name: "notify_customer", args: { message: "On it." } }] },
      { text: "Done." },
    ];
    const built = await compile(
      join(import.meta.dirname, "..", "..", "graphs", "ticket-agent.yaml"),
      {
        scripts: { "ticket-agent": turns },
        checkpointer: new MemorySaver(),
      },
    );
    const config = { configurable: { thread_id: "p1" }, context: { user_id: "u-7" } };
    const input = { messages: [{ role: "user", content: "T-1001?" }] };
    await built.invoke(input, config);
    const paused = await built.getState(config);
    expect(paused.next).toEqual(["investigate"]);
    // Forked where it paused: the agent runs from its start, so it takes the turns from the first.
    const fork = await built.updateState(paused.config, { messages: [] });
    await built.invoke(null, { ...fork, context: { user_id: "u-7" } });
    const again = await built.getState(fork);
    expect(again.tasks[0]?.interrupts[0]?.value).toMatchObject({
      actionRequests: [{ name: "notify_customer", args: { message: "On it." } }],
    });
  });

  it("compile() with a checkpointer: a resume on the thread continues the script", async () => {
    const built = await compile(join(dir, "ask-twice.yaml"), {
      scripts: twoTurns,
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "c1" } };
    await built.invoke({}, config);
    const { Command } = await import("@langchain/langgraph");
    const done = await built.invoke(new Command({ resume: true }), config);
    expect(done.answers).toEqual(["first answer", "second answer"]);
  });
});
