/**
 * Subgraphs in two executor checks that looked only at the top spec, or at every child alike:
 * - scripts: an executor given `scripts` runs a graph whose subgraph's scripted model has none, as
 *   `graphspec test` does; the model fails when it is called, as a RunResult naming the script —
 *   not a CompileError thrown when the graph loads. Also `graphspec dev --scripts`, via the SDK.
 * - durability: a graph can pause for a person only if it, or a subgraph at any depth, can; only
 *   such a graph is refused by `requireDurable` (and warned about on memory checkpoints).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, describe, expect, it } from "vitest";
import { createExecutor } from "../../src/index.js";
import { graphspecIn, scratchDir } from "../support/cli.js";
import { type DevServer, startDevServer } from "../support/dev-server.js";

const dir = scratchDir("subgraph-scripts");
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));
const graph = (name: string, text: string) =>
  writeFileSync(join(dir, "graphs", `${name}.yaml`), `version: 1\nname: ${name}\n${text}`);
const specText = (name: string, text: string) => `version: 1\nname: ${name}\n${text}`;

// The child's model is called only when `ask` is true.
const ASKING_CHILD = `state:
  ask: { type: boolean, default: false }
  answer: { type: string, default: "" }
models:
  default: { model: "scripted:kid" }
nodes:
  talk: { kind: llm, prompt: "Say hi", write: answer }
edges:
  - from: START
    route:
      - { when: state.ask, to: talk }
      - { default: END }
  - { from: talk, to: END }
`;
const ASKING_PARENT = `state:
  ask: { type: boolean, default: false }
  answer: { type: string, default: "" }
  greeting: { type: string, default: "" }
models:
  default: { model: "scripted:top" }
nodes:
  greet: { kind: llm, prompt: "Greet", write: greeting }
  inner: { kind: subgraph, graph: ./asking-child.yaml }
edges:
  - { from: START, to: greet }
  - { from: greet, to: inner }
  - { from: inner, to: END }
`;
graph("asking-child", ASKING_CHILD);
graph("asking-parent", ASKING_PARENT);

describe("an executor given scripts, and a subgraph's scripted model without one", () => {
  const exec = () =>
    createExecutor({ dir: join(dir, "graphs"), checkpointer: "memory", scripts: { top: ["Hi."] } });

  it("runs the graph when the model is never called", async () => {
    const e = exec();
    try {
      const r = await e.run("asking-parent", { input: {} });
      expect(r.error).toBeUndefined();
      expect(r).toMatchObject({ status: "completed", output: { greeting: "Hi.", answer: "" } });
    } finally {
      await e.close();
    }
  });

  it("fails the run at the call, as a RunResult naming the missing script and the given ones", async () => {
    const e = exec();
    try {
      const r = await e.run("asking-parent", { threadId: "asks", input: { ask: true } });
      expect(r.status).toBe("failed");
      expect(r.error).toMatchObject({
        code: "node-error",
        node: "inner",
        path: ["inner", "talk"],
        hint: "the scripts given are `top`: add `kid`",
      });
      expect(r.error?.message).toContain(
        "model `default` (`scripted:kid`) has no script: the scripted provider answers only from a script supplied by the test or fixture that runs the graph",
      );
      // The parent's step before the subgraph is kept.
      expect(r.output).toMatchObject({ greeting: "Hi." });
      expect(await e.inspect("asks")).toMatchObject({ status: "failed", error: r.error });
    } finally {
      await e.close();
    }
  });
});

describe("`graphspec dev --scripts` with a subgraph's scripted model unscripted (the SDK)", () => {
  let server: DevServer | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it("serves the graph; a run that never calls the model completes", async () => {
    server = await startDevServer({
      files: {
        "graphs/asking-child.yaml": specText("asking-child", ASKING_CHILD),
        "graphs/asking-parent.yaml": specText("asking-parent", ASKING_PARENT),
      },
      scripts: { top: ["Hello."] },
    });
    const client = new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
    const thread = await client.threads.create();
    const values = await client.runs.wait(thread.thread_id, "asking-parent", { input: {} });
    expect(values).toMatchObject({ greeting: "Hello.", answer: "" });
  });
});

// Durability: subgraphs that cannot pause, and ones that can, one and two levels down.
graph(
  "plain-child",
  `state:
  topic: { type: string, default: "" }
  summary: { type: string, default: "" }
nodes:
  summarize: { kind: set, values: { summary: "About \${{ state.topic }}" } }
edges:
  - { from: START, to: summarize }
  - { from: summarize, to: END }
`,
);
graph(
  "plain-parent",
  `state:
  topic: { type: string, default: "" }
  summary: { type: string, default: "" }
nodes:
  inner: { kind: subgraph, graph: ./plain-child.yaml }
edges:
  - { from: START, to: inner }
  - { from: inner, to: END }
`,
);
graph(
  "asking",
  `state:
  topic: { type: string, default: "" }
  ok: { type: boolean, default: false }
nodes:
  confirm: { kind: interrupt, payload: { question: "Go on?" }, write: ok }
edges:
  - { from: START, to: confirm }
  - { from: confirm, to: END }
`,
);
graph(
  "mounts-asking",
  `state:
  topic: { type: string, default: "" }
  ok: { type: boolean, default: false }
nodes:
  review: { kind: subgraph, graph: ./asking.yaml }
edges:
  - { from: START, to: review }
  - { from: review, to: END }
`,
);
graph(
  "mounts-mounts-asking",
  `state:
  topic: { type: string, default: "" }
  ok: { type: boolean, default: false }
nodes:
  outer: { kind: subgraph, graph: ./mounts-asking.yaml }
edges:
  - { from: START, to: outer }
  - { from: outer, to: END }
`,
);

describe("durability: only a graph that can pause, itself or in a subgraph, needs durable checkpoints", () => {
  const exec = (requireDurable: boolean) =>
    createExecutor({ dir: join(dir, "graphs"), checkpointer: "memory", requireDurable });

  it("a subgraph that cannot pause: run under requireDurable, no warning on memory checkpoints", async () => {
    for (const requireDurable of [true, false]) {
      const e = exec(requireDurable);
      try {
        const r = await e.run("plain-parent", { input: { topic: "tides" } });
        expect(r).toMatchObject({ status: "completed", output: { summary: "About tides" } });
        expect(r.warnings).toEqual([]);
      } finally {
        await e.close();
      }
    }
  });

  it.each([["mounts-asking"], ["mounts-mounts-asking"]])(
    "%s (a subgraph that can pause): refused under requireDurable, else a warning",
    async (name) => {
      const strict = exec(true);
      try {
        const r = await strict.run(name, { input: {} });
        expect(r).toMatchObject({ status: "failed", error: { code: "not-durable" } });
      } finally {
        await strict.close();
      }
      const lax = exec(false);
      try {
        const r = await lax.run(name, { input: {} });
        expect(r.status).toBe("interrupted");
        expect(r.warnings).toEqual([
          `graph \`${name}\` can pause for a person, and its checkpoints are kept in memory only: a paused run is lost when this process ends`,
        ]);
      } finally {
        await lax.close();
      }
    },
  );

  it("`graphspec run --require-durable` runs a graph whose subgraph cannot pause", () => {
    const graphspec = graphspecIn(dir);
    const r = graphspec(
      "run",
      "plain-parent",
      "--input",
      '{"topic":"tides"}',
      "--checkpointer",
      "memory",
      "--require-durable",
      "--json",
    );
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: "completed", warnings: [] });
    const refused = graphspec(
      "run",
      "mounts-mounts-asking",
      "--checkpointer",
      "memory",
      "--require-durable",
      "--json",
    );
    expect(refused.status).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ error: { code: "not-durable" } });
  });
});
