/**
 * A failure inside a subgraph reaches the caller with the child's own code, field and hint — not a
 * `subgraph` code around LangGraph's raw message — and says where: the path of nodes from the run's
 * graph down to the node that failed. Through the executor (package entry), the CLI, and the
 * official SDK against `graphspec serve`; the model is the real `@langchain/openai` client over
 * HTTP against the OpenAI stub. The thread keeps its state: it reads back failed, with the same error.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, describe, expect, it } from "vitest";
import { createExecutor } from "../../src/index.js";
import { BIN, graphspecAsyncIn, ROOT, scratchDir } from "../support/cli.js";
import { type OpenAIStub, type StubTurn, startOpenAIStub } from "../support/openai-stub.js";

const dir = scratchDir("subgraph-failures");
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));
symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
const file = (name: string, text: string) => writeFileSync(join(dir, name), text);
const graph = (name: string, text: string) =>
  file(join("graphs", `${name}.yaml`), `version: 1\nname: ${name}\n${text}`);

// Two nodes of one step write one `replace` channel: LangGraph's InvalidUpdateError, in a child.
file("write-a.mjs", 'export default () => ({ x: "a" });\n');
file("write-b.mjs", 'export default () => ({ x: "b" });\n');
graph(
  "collide-child",
  `state:
  x: { type: string, default: "" }
nodes:
  a: { kind: function, module: ../write-a.mjs }
  b: { kind: function, module: ../write-b.mjs }
edges:
  - { from: START, to: [a, b] }
  - { from: a, to: END }
  - { from: b, to: END }
`,
);
graph(
  "collide",
  `state:
  x: { type: string, default: "" }
  before: { type: string, default: "" }
nodes:
  prep: { kind: set, values: { before: kept } }
  inner: { kind: subgraph, graph: ./collide-child.yaml, input: { x: "" }, output: { x: "\${{ output.x }}" } }
edges:
  - { from: START, to: prep }
  - { from: prep, to: inner }
  - { from: inner, to: END }
`,
);

// Two levels down, an `llm` node whose structured answer misses its schema twice: `invalid-output`.
graph(
  "leaf",
  `state:
  ticket: { type: string }
  priority: { type: string }
models:
  default:
    model: "openai:gpt-4o-mini"
    base_url: "\${{ env.STUB_URL }}"
    api_key: sk-test
nodes:
  classify:
    kind: llm
    prompt: "Ticket: \${{ state.ticket }}"
    output:
      name: triage
      schema:
        type: object
        properties: { priority: { type: string, enum: [low, urgent] } }
        required: [priority]
    write: { priority: "\${{ output.priority }}" }
edges:
  - { from: START, to: classify }
  - { from: classify, to: END }
`,
);
graph(
  "middle",
  `state:
  ticket: { type: string }
  priority: { type: string }
nodes:
  deeper: { kind: subgraph, graph: ./leaf.yaml }
edges:
  - { from: START, to: deeper }
  - { from: deeper, to: END }
`,
);
graph(
  "top",
  `state:
  ticket: { type: string }
  priority: { type: string }
  seen: { type: boolean, default: false }
nodes:
  note: { kind: set, values: { seen: true } }
  research: { kind: subgraph, graph: ./middle.yaml }
edges:
  - { from: START, to: note }
  - { from: note, to: research }
  - { from: research, to: END }
`,
);

// A child's function that throws an error of its own with a hint; a child's tool that fails.
file(
  "fetch.mjs",
  'export default () => { throw Object.assign(new Error("the index is down"), { hint: "start the index (npm run index)" }); };\n',
);
file(
  "lookup.mjs",
  'export const lookup = async () => { throw new Error("ticket store unreachable"); };\n',
);
graph(
  "errs-child",
  `state:
  which: { type: string }
  found: { type: string }
tools:
  lookup:
    module: ../lookup.mjs
    description: Looks a ticket up.
    schema: { type: object, properties: {} }
nodes:
  fetch: { kind: function, module: ../fetch.mjs }
  look: { kind: tool, tool: lookup, args: {}, write: found }
edges:
  - from: START
    route:
      - { when: 'state.which == "tool"', to: look }
      - { default: fetch }
  - { from: fetch, to: END }
  - { from: look, to: END }
`,
);
graph(
  "errs",
  `state:
  which: { type: string }
  found: { type: string }
nodes:
  lookup_step: { kind: subgraph, graph: ./errs-child.yaml }
edges:
  - { from: START, to: lookup_step }
  - { from: lookup_step, to: END }
`,
);

/** Two structured answers that miss the schema's enum: the `llm` node's try and its one retry. */
const WRONG_TWICE: StubTurn[] = [
  { structured: { priority: "whenever" } },
  { structured: { priority: "someday" } },
];

let stub: OpenAIStub | undefined;
afterAll(async () => {
  await stub?.close();
});
/** A fresh stub answering `turns`, its URL as the specs' STUB_URL. */
async function stubWith(turns: StubTurn[]): Promise<string> {
  await stub?.close();
  stub = await startOpenAIStub(turns);
  return stub.url;
}

const executor = (stubUrl = "") =>
  createExecutor({ dir: join(dir, "graphs"), checkpointer: "memory", env: { STUB_URL: stubUrl } });

describe("a failure inside a subgraph keeps the child's code, hint and node, with the path", () => {
  it("LangGraph's InvalidUpdateError in a child: `parallel-write` with its hint; the thread reads back", async () => {
    const exec = executor();
    try {
      const r = await exec.run("collide", { threadId: "collide-1", input: {} });
      expect(r.status).toBe("failed");
      expect(r.error).toMatchObject({
        code: "parallel-write",
        phase: "run",
        node: "inner",
        path: ["inner"],
      });
      expect(r.error?.message).toBe(
        "in the subgraph `graphs/collide-child.yaml` at `inner`: nodes of one step wrote `x`, a `replace` channel that keeps one value per step (written by `a` and `b`)",
      );
      expect(r.error?.hint).toMatch(/^give `x` a reducer/);
      // The step before the subgraph is kept, and the thread says why it stopped.
      expect(r.output).toMatchObject({ before: "kept" });
      expect(r.next).toEqual(["inner"]);
      const inspected = await exec.inspect("collide-1");
      expect(inspected).toMatchObject({ status: "failed", error: r.error });
      expect((await exec.state("collide-1"))?.values).toMatchObject({ before: "kept" });
      // Going on meets the same collision: the same error, not a crash.
      const again = await exec.resume("collide", { threadId: "collide-1" });
      expect(again.error).toMatchObject({ code: "parallel-write", path: ["inner"] });
    } finally {
      await exec.close();
    }
  });

  it("a coded error two subgraphs down (the real OpenAI client): its code, hint, and `top > … > node`", async () => {
    // Then a good answer, for the resume.
    const exec = executor(await stubWith([...WRONG_TWICE, { structured: { priority: "urgent" } }]));
    try {
      const r = await exec.run("top", { threadId: "deep-1", input: { ticket: "T-1" } });
      expect(r.status).toBe("failed");
      expect(r.error).toMatchObject({
        code: "invalid-output",
        phase: "node",
        node: "research",
        path: ["research", "deeper", "classify"],
      });
      expect(r.error?.message).toMatch(
        /^in the subgraph `graphs\/leaf\.yaml` at `research > deeper > classify`: node `classify`/,
      );
      expect(r.error?.hint).toBeTruthy();
      expect(r.error?.hint).not.toMatch(/on its own/);
      expect(r.output).toMatchObject({ seen: true, ticket: "T-1" });
      expect(await exec.inspect("deep-1")).toMatchObject({ status: "failed", error: r.error });
      // Going on from the thread's checkpoint runs the subgraph again, and this time it answers.
      const resumed = await exec.resume("top", { threadId: "deep-1" });
      expect(stub?.requests).toHaveLength(3);
      expect(resumed.error).toBeUndefined();
      expect(resumed).toMatchObject({
        status: "completed",
        output: { ticket: "T-1", seen: true, priority: "urgent" },
      });
    } finally {
      await exec.close();
    }
  });

  it("a child's own error keeps its hint, and names the child's node that threw", async () => {
    const exec = executor();
    try {
      const r = await exec.run("errs", { input: { which: "function" } });
      expect(r.error).toMatchObject({
        code: "node-error",
        node: "lookup_step",
        path: ["lookup_step", "fetch"],
        hint: "start the index (npm run index)",
      });
      expect(r.error?.message).toBe(
        "in the subgraph `graphs/errs-child.yaml` at `lookup_step > fetch`: the index is down",
      );
    } finally {
      await exec.close();
    }
  });

  it("a child's failing tool: `tool-error`, naming the tool node", async () => {
    const exec = executor();
    try {
      const r = await exec.run("errs", { input: { which: "tool" } });
      expect(r.error).toMatchObject({
        code: "tool-error",
        node: "lookup_step",
        path: ["lookup_step", "look"],
      });
      expect(r.error?.message).toContain("ticket store unreachable");
    } finally {
      await exec.close();
    }
  });

  it("the run's token budget spent inside a subgraph: `budget-exceeded`, as anywhere", async () => {
    const exec = executor(await stubWith(WRONG_TWICE));
    try {
      const r = await exec.run("top", { input: { ticket: "T-2" }, maxTokens: 1 });
      expect(r.error).toMatchObject({ code: "budget-exceeded" });
    } finally {
      await exec.close();
    }
  });
});

describe("`graphspec run` on a graph whose subgraph fails", () => {
  it("prints the child's code, the path and its hint, and exits 1; --json has them too", async () => {
    const url = await stubWith([...WRONG_TWICE, ...WRONG_TWICE]);
    const graphspec = graphspecAsyncIn(dir, { STUB_URL: url });
    const shown = await graphspec(
      "run",
      "top",
      "--input",
      '{"ticket":"T-3"}',
      "--checkpointer",
      "memory",
    );
    expect(shown.stderr).not.toMatch(/internal error|Please report|at .*\.js:\d+/);
    expect(shown.status).toBe(1);
    expect(shown.stdout).toMatch(
      /^✖ failed in node `research` \[invalid-output\]: in the subgraph `graphs\/leaf\.yaml` at `research > deeper > classify`: /m,
    );
    expect(shown.stdout).toMatch(/^ {2}hint: /m);
    const json = await graphspec("run", "top", "--input", '{"ticket":"T-4"}', "--json");
    expect(json.status).toBe(1);
    const result = JSON.parse(json.stdout);
    expect(result.error).toMatchObject({
      code: "invalid-output",
      path: ["research", "deeper", "classify"],
    });
    // The thread, kept in .graphspec/state.db, reads back as failed with the same code.
    const show = await graphspec("threads", "show", result.threadId);
    expect(show.status).toBe(0);
    expect(show.stdout).toMatch(/failed \[invalid-output\]/);
  });
});

describe("`graphspec serve`: the SDK's error event for a failure inside a subgraph", () => {
  let server: ChildProcess | undefined;
  afterAll(() => {
    server?.kill("SIGKILL");
  });

  it("carries the child's code, its hint and the path; the thread's state is kept", async () => {
    const url = await stubWith(WRONG_TWICE);
    server = spawn(
      process.execPath,
      [BIN, "serve", "graphs", "--no-auth", "--port", "0", "--host", "127.0.0.1"],
      { cwd: dir, env: { ...process.env, STUB_URL: url }, stdio: ["ignore", "pipe", "pipe"] },
    );
    const apiUrl = await new Promise<string>((resolve, reject) => {
      let out = "";
      server!.stdout!.on("data", (d) => {
        out += d;
        if (out.includes("\n")) resolve(out.split("\n")[0]!);
      });
      server!.once("exit", (code) => reject(new Error(`serve exited ${code}`)));
    });
    const client = new Client({ apiUrl, callerOptions: { maxRetries: 0 } });
    const thread = await client.threads.create();
    const events: { event: string; data: unknown }[] = [];
    for await (const e of client.runs.stream(thread.thread_id, "top", {
      input: { ticket: "T-5" },
      streamMode: "values",
    }))
      events.push(e);
    const error = events.find((e) => e.event === "error");
    expect(error?.data).toMatchObject({
      error: "invalid-output",
      node: "research",
      path: ["research", "deeper", "classify"],
    });
    const data = error?.data as { message: string; hint?: string };
    expect(data.message).toMatch(/^in the subgraph `graphs\/leaf\.yaml` at `research > deeper/);
    expect(data.hint).toBeTruthy();
    const state = await client.threads.getState(thread.thread_id);
    expect(state.values).toMatchObject({ ticket: "T-5", seen: true });
    expect(state.next).toEqual(["research"]);
  });
});
