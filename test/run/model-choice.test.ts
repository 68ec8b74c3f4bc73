/**
 * A run chooses its model from a spec's `allow` list: through the executor (`model`), plain
 * `compile()` (`configurable.model`) and the CLI (`--model`). A choice outside the list is refused
 * before any model call and before anything is written to the thread.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { afterAll, describe, expect, it } from "vitest";
import { compile, createExecutor, GraphspecRunError } from "../../src/index.js";

const BIN = join(import.meta.dirname, "..", "..", "bin", "graphspec.js");
const dir = mkdtempSync(join(tmpdir(), "graphspec-model-choice-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));
const spec = join(dir, "graphs", "chooser.yaml");
writeFileSync(
  spec,
  `version: 1
name: chooser
state:
  messages: { type: messages }
models:
  default:
    model: "scripted:small"
    allow: [large]
  large: { model: "scripted:large" }
  other: { model: "scripted:other" }
nodes:
  ask: { kind: llm, prompt: Hi. }
  act: { kind: agent, tools: [], system: Act. }
edges:
  - { from: START, to: ask }
  - { from: ask, to: act }
  - { from: act, to: END }
`,
);
const scripts = () => ({
  small: ["small 1", "small 2"],
  large: ["large 1", "large 2"],
  other: ["other 1"],
});
/** The scripted answers in a run's messages (the prompts left out). */
const texts = (output: Record<string, unknown>) =>
  (output.messages as { content: unknown }[])
    .map((m) => m.content)
    .filter((c) => typeof c === "string" && /^(small|large|other|huge) /.test(c));
const executor = () =>
  createExecutor({ dir: join(dir, "graphs"), checkpointer: "memory", scripts: scripts() });

describe("a run's model, through the executor", () => {
  it("runs each node's own model by default, and the chosen one in its place", async () => {
    const exec = executor();
    const plain = await exec.run("chooser", { input: { messages: [] } });
    expect(plain.status).toBe("completed");
    expect(texts(plain.output)).toEqual(["small 1", "small 2"]);
    const chosen = await exec.run("chooser", { input: { messages: [] }, model: "large" });
    expect(chosen.status).toBe("completed");
    expect(texts(chosen.output)).toEqual(["large 1", "large 2"]);
  });

  it("takes the choice by `provider:name` too", async () => {
    const result = await executor().run("chooser", {
      input: { messages: [] },
      model: "scripted:large",
    });
    expect(texts(result.output)).toEqual(["large 1", "large 2"]);
  });

  it("refuses a model outside the list before any call, and stores nothing", async () => {
    const exec = executor();
    for (const model of ["other", "openai:gpt-4o", "lrage"]) {
      const result = await exec.run("chooser", {
        input: { messages: [] },
        threadId: `refused-${model}`,
        model,
      });
      expect(result.status).toBe("failed");
      expect(result.error).toMatchObject({ code: "model-not-allowed", phase: "input" });
      expect(result.error?.message).toContain(`\`${model}\``);
      expect(result.error?.hint).toContain("`large`");
      expect(await exec.history(`refused-${model}`, "chooser")).toEqual([]);
    }
    const typo = await exec.run("chooser", { input: { messages: [] }, model: "lrage" });
    expect(typo.error?.hint).toMatch(/did you mean `large`\?/);
    // No turn was spent: the next run starts at the scripts' first turns.
    const next = await exec.run("chooser", { input: { messages: [] } });
    expect(texts(next.output)).toEqual(["small 1", "small 2"]);
  });

  it("refuses a choice where the spec allows none", async () => {
    writeFileSync(
      join(dir, "graphs", "fixed.yaml"),
      `version: 1
name: fixed
state:
  messages: { type: messages }
models:
  default: { model: "scripted:small" }
nodes:
  ask: { kind: llm, prompt: Hi. }
edges:
  - { from: START, to: ask }
  - { from: ask, to: END }
`,
    );
    const result = await executor().run("fixed", { input: { messages: [] }, model: "default" });
    expect(result.error).toMatchObject({ code: "model-not-allowed", phase: "input" });
    expect(result.error?.message).toContain("lets no run choose its model");
  });

  it("a resume may choose too", async () => {
    const exec = executor();
    const paused = await exec.run("chooser", {
      input: { messages: [] },
      interruptBefore: ["act"],
    });
    expect(paused.status).toBe("interrupted");
    const resumed = await exec.resume("chooser", { threadId: paused.threadId, model: "large" });
    expect(resumed.status).toBe("completed");
    expect(texts(resumed.output)).toEqual(["small 1", "large 1"]);
  });

  it("a thread keeps the model its run chose: a resume without one goes on with it", async () => {
    const exec = executor();
    const paused = await exec.run("chooser", {
      input: { messages: [] },
      model: "large",
      interruptBefore: ["act"],
    });
    expect(texts(paused.output)).toEqual(["large 1"]);
    const resumed = await exec.resume("chooser", { threadId: paused.threadId });
    expect(resumed.status).toBe("completed");
    expect(texts(resumed.output)).toEqual(["large 1", "large 2"]);
  });
});

describe("a run's model in a subgraph", () => {
  it("applies to the child's models that allow it; the others keep their own", async () => {
    writeFileSync(
      join(dir, "graphs", "child.yaml"),
      `version: 1
name: child
state:
  messages: { type: messages }
models:
  default: { model: "scripted:other" }
  chooser: { model: "scripted:small", allow: [large] }
  large: { model: "scripted:huge" }
nodes:
  own: { kind: llm, prompt: Hi. }
  chosen: { kind: llm, model: chooser, prompt: Hi. }
edges:
  - { from: START, to: own }
  - { from: own, to: chosen }
  - { from: chosen, to: END }
`,
    );
    writeFileSync(
      join(dir, "graphs", "parent.yaml"),
      `version: 1
name: parent
state:
  messages: { type: messages }
models:
  default: { model: "scripted:small", allow: [large] }
  large: { model: "scripted:large" }
nodes:
  ask: { kind: llm, prompt: Hi. }
  child: { kind: subgraph, graph: child.yaml }
edges:
  - { from: START, to: ask }
  - { from: ask, to: child }
  - { from: child, to: END }
`,
    );
    const exec = createExecutor({
      dir: join(dir, "graphs"),
      checkpointer: "memory",
      scripts: { ...scripts(), huge: ["huge 1"] },
    });
    const result = await exec.run("parent", { input: { messages: [] }, model: "large" });
    expect(result.status).toBe("completed");
    expect(texts(result.output)).toEqual(["large 1", "other 1", "huge 1"]);
  });
});

describe("a run's model, through compile()", () => {
  it("reads `configurable.model`, and refuses one outside the list before writing", async () => {
    const checkpointer = new MemorySaver();
    const graph = await compile(spec, { scripts: scripts(), checkpointer });
    const chosen = await graph.invoke(
      { messages: [] },
      { configurable: { thread_id: "c1", model: "large" } },
    );
    expect(texts(chosen)).toEqual(["large 1", "large 2"]);
    const error = await graph
      .invoke({ messages: [] }, { configurable: { thread_id: "c2", model: "other" } })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(GraphspecRunError);
    expect(error).toMatchObject({ code: "model-not-allowed", field: "model" });
    expect(await checkpointer.getTuple({ configurable: { thread_id: "c2" } })).toBeUndefined();
  });
});

describe("graphspec run --model", () => {
  const graphspec = (...args: string[]) =>
    spawnSync(process.execPath, [BIN, ...args], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });
  const flags = ["--checkpointer", "memory", "--scripts", JSON.stringify(scripts()), "--json"];

  it("runs the chosen model", () => {
    const r = graphspec(
      "run",
      "chooser",
      "--input",
      '{"messages":[]}',
      "--model",
      "large",
      ...flags,
    );
    expect(r.status).toBe(0);
    expect(texts(JSON.parse(r.stdout).output)).toEqual(["large 1", "large 2"]);
  });

  it("refuses a model outside the list, naming the ones allowed", () => {
    const r = graphspec("run", "chooser", "--model", "other", "--checkpointer", "memory");
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("[model-not-allowed]");
    expect(r.stdout).toContain("choose one of `default` or `large`");
  });
});
