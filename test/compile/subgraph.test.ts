/**
 * `subgraph` nodes: the child specs in test/fixtures/compile/subgraph/ mounted with the default
 * and explicit mappings, the child's own input/output lists, the parent's context, interrupts
 * that pause inside the child and resume there, streaming, failures, and the same run written by
 * hand (a parent node that invokes a child graph).
 */
import { join } from "node:path";
import type { BaseMessage } from "@langchain/core/messages";
import {
  Annotation,
  Command,
  END,
  interrupt,
  type LangGraphRunnableConfig,
  MemorySaver,
  START,
  StateGraph,
} from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { compile } from "../../src/compile/index.js";
import type { SpecDocument } from "../../src/spec/document.js";
import { parseSpec } from "../../src/spec/load.js";
import { expectSameRun } from "../support/equivalence.js";
import { rejection } from "./helpers.js";

const DIR = "test/fixtures/compile/subgraph";

/** A parent spec from text, as if it were test/fixtures/compile/subgraph/parent.yaml. */
const parent = (text: string): SpecDocument =>
  parseSpec(
    `version: 1\nname: parent\n${text}`,
    { file: `${DIR}/parent.yaml`, root: process.cwd() },
    join(process.cwd(), DIR, "parent.yaml"),
  );
const saver = () => ({ checkpointer: new MemorySaver() });
let threads = 0;
const thread = () => ({ configurable: { thread_id: `subgraph-${++threads}` } });

const TRIAGE_STATE = `state:
  ticket: { type: string }
  priority: { type: string, default: unset }
  notes: { type: array, items: { type: string }, reducer: append, default: [] }
  verdict: { type: string }
`;

describe("subgraph mappings", () => {
  it("passes every shared channel in and copies every shared channel back by default", async () => {
    const g = await compile(
      parent(`${TRIAGE_STATE}nodes:
  triage: { kind: subgraph, graph: ./triage.yaml }
edges:
  - { from: START, to: triage }
  - { from: triage, to: END }
`),
    );
    const out = await g.invoke({ ticket: "site down", notes: ["n0"] });
    // `notes` (append) went in as ["n0"] and came back as ["n0", "triaged …"], written through
    // the parent's reducer: the parent gets its own item again. `scratch` stays in the child.
    expect(out).toEqual({
      ticket: "site down",
      priority: "urgent",
      notes: ["n0", "n0", "triaged site down"],
    });
  });

  it("maps `input` from the parent's state and `output` from the child's final state", async () => {
    const g = await compile(
      parent(`${TRIAGE_STATE}  text: { type: string }
nodes:
  triage:
    kind: subgraph
    graph: ./triage.yaml
    input: { ticket: "\${{ 'ticket: ' + state.text }}" }
    output:
      verdict: "\${{ output.priority + ' / ' + output.scratch }}"
      notes: "\${{ output.notes }}"
edges:
  - { from: START, to: triage }
  - { from: triage, to: END }
`),
    );
    const out = await g.invoke({ text: "printer down", notes: ["kept"] });
    // Only the mapped channels cross: the child started without the parent's notes.
    expect(out).toEqual({
      text: "printer down",
      priority: "unset",
      notes: ["kept", "triaged ticket: printer down"],
      verdict: "urgent / internal",
    });
  });

  it("respects the child's own input and output lists", async () => {
    const g = await compile(
      parent(`${TRIAGE_STATE}nodes:
  triage: { kind: subgraph, graph: ./triage-lists.yaml }
edges:
  - { from: START, to: triage }
  - { from: triage, to: END }
`),
    );
    // The child takes only `ticket` (not `priority`, not `notes`) and gives back only `priority`.
    expect(await g.invoke({ ticket: "slow", priority: "high", notes: ["n0"] })).toEqual({
      ticket: "slow",
      priority: "low",
      notes: ["n0"],
    });
  });

  it("refuses, when compiling, an `input` key the child does not take", async () => {
    const e = await rejection(
      compile(
        parent(`${TRIAGE_STATE}nodes:
  triage:
    kind: subgraph
    graph: ./triage-lists.yaml
    input: { ticket: "\${{ state.ticket }}", notes: "\${{ state.notes }}" }
edges:
  - { from: START, to: triage }
  - { from: triage, to: END }
`),
      ),
    );
    expect(e.name).toBe("CompileError");
    // The check compile runs first finds it (subgraph-channels) ...
    expect(e.message).toMatch(
      /test\/fixtures\/compile\/subgraph\/parent\.yaml:\d+:\d+: node `triage` passes `notes` to the subgraph `test\/fixtures\/compile\/subgraph\/triage-lists\.yaml`, which does not take it as input .*\[subgraph-channels\]/,
    );
    // ... and the subgraph node refuses it on its own when that check is skipped.
    const unchecked = await rejection(
      compile(
        parent(`${TRIAGE_STATE}nodes:
  triage:
    kind: subgraph
    graph: ./triage-lists.yaml
    input: { ticket: "\${{ state.ticket }}", notes: "\${{ state.notes }}" }
edges:
  - { from: START, to: triage }
  - { from: triage, to: END }
`),
        { validate: false },
      ),
    );
    expect(unchecked.message).toMatch(
      /^test\/fixtures\/compile\/subgraph\/parent\.yaml:\d+:\d+: node `triage` passes `notes` to the subgraph `test\/fixtures\/compile\/subgraph\/triage-lists\.yaml`, which does not take it as input/,
    );
  });

  it("copies messages back without duplicating the ones that went in (same ids)", async () => {
    const g = await compile(
      parent(`state:
  messages: { type: messages }
nodes:
  reply: { kind: subgraph, graph: ./reply.yaml }
edges:
  - { from: START, to: reply }
  - { from: reply, to: END }
`),
    );
    const out = await g.invoke({ messages: [{ role: "user", content: "hello" }] });
    const messages = out.messages as BaseMessage[];
    expect(messages.map((m) => [m.getType(), m.content])).toEqual([
      ["human", "hello"],
      ["ai", "you said: hello"],
    ]);
  });

  it("runs the child with the parent's context, the parent's defaults filled in", async () => {
    const g = await compile(
      parent(`state:
  greeting: { type: string }
context:
  user_id: { type: string, required: true }
  locale: { type: string, default: en }
nodes:
  greet: { kind: subgraph, graph: ./greet.yaml }
edges:
  - { from: START, to: greet }
  - { from: greet, to: END }
`),
    );
    expect(await g.invoke({}, { context: { user_id: "u-1" } })).toEqual({
      greeting: "hi u-1 (en)",
    });
  });
});

const ASK_PARENT = `state:
  question: { type: string }
  answer: { type: string }
nodes:
  ask_child: { kind: subgraph, graph: ./ask.yaml }
edges:
  - { from: START, to: ask_child }
  - { from: ask_child, to: END }
`;

/** The latest checkpoint a child wrote under `node`'s namespace in the config's thread. */
async function childCheckpoint(
  saver: MemorySaver,
  config: { configurable: { thread_id: string } },
  node: string,
): Promise<{ channel_values: Record<string, unknown> }> {
  for await (const tuple of saver.list(config)) {
    if (String(tuple.config.configurable?.checkpoint_ns).startsWith(`${node}:`))
      return tuple.checkpoint;
  }
  throw new Error(`no checkpoint under ${node}`);
}

describe("interrupts inside a subgraph", () => {
  // LangGraph finds the child under the node through the node's `subgraphs` option.
  it("show the child's state in getState({ subgraphs: true })", async () => {
    const g = await compile(parent(ASK_PARENT), saver());
    const config = thread();
    await g.invoke({ question: "Ship it?" }, config);
    const state = await g.getState(config, { subgraphs: true });
    const child = state.tasks[0]?.state as { values: unknown; next: string[] } | undefined;
    expect(child?.values).toEqual({ log: ["prep"], question: "Ship it?" });
    expect(child?.next).toEqual(["ask"]);
  });

  it("pause the parent run; the resume continues inside the child", async () => {
    const checkpointer = new MemorySaver();
    const g = await compile(parent(ASK_PARENT), { checkpointer });
    const config = thread();
    const paused = await g.invoke({ question: "Ship it?" }, config);
    expect(paused.__interrupt__.map((i: { value: unknown }) => i.value)).toEqual([
      { question: "Ship it?" },
    ]);

    const state = await g.getState(config);
    expect(state.next).toEqual(["ask_child"]);
    expect(state.tasks[0]?.interrupts.map((i) => i.value)).toEqual([{ question: "Ship it?" }]);

    // The child keeps its checkpoints in the parent's thread, under the node's namespace:
    // `prep` has run, `ask` waits.
    const child = await childCheckpoint(checkpointer, config, "ask_child");
    expect(child.channel_values).toMatchObject({ log: ["prep"], question: "Ship it?" });

    const out = await g.invoke(new Command({ resume: "yes" }), config);
    expect(out).toEqual({ question: "Ship it?", answer: "yes" });
  });

  it("stream the child's steps with `subgraphs: true`, and `prep` does not run again", async () => {
    const g = await compile(parent(ASK_PARENT), saver());
    const config = thread();
    const seen: string[] = [];
    const collect = async (input: Parameters<typeof g.stream>[0]) => {
      const stream = await g.stream(input, { ...config, streamMode: "updates", subgraphs: true });
      for await (const [ns, update] of stream as AsyncIterable<[string[], object]>) {
        const where = ns.map((n) => n.split(":")[0]).join("/") || "parent";
        for (const key of Object.keys(update)) seen.push(`${where}: ${key}`);
      }
    };
    await collect({ question: "Ship it?" });
    await collect(new Command({ resume: "yes" }));
    expect(seen).toEqual([
      "ask_child: prep",
      "ask_child: __interrupt__",
      "parent: __interrupt__",
      "ask_child: ask",
      "parent: ask_child",
    ]);
  });

  it("a refused resume inside the child keeps the parent paused", async () => {
    const g = await compile(parent(ASK_PARENT), saver());
    const config = thread();
    await g.invoke({ question: "Ship it?" }, config);
    const again = await g.invoke(new Command({ resume: 42 }), config);
    expect(again.__interrupt__[0].value).toMatchObject({
      payload: { question: "Ship it?" },
      error: { resume: 42, message: expect.stringContaining("`resume` must be a string") },
    });
    expect(await g.invoke(new Command({ resume: "ok" }), config)).toEqual({
      question: "Ship it?",
      answer: "ok",
    });
  });

  it("in two children of one step resume each inside its own child, by id", async () => {
    const g = await compile(
      parent(`state:
  question: { type: string }
  first: { type: string }
  second: { type: string }
nodes:
  one: { kind: subgraph, graph: ./ask.yaml, output: { first: "\${{ output.answer }}" } }
  two: { kind: subgraph, graph: ./ask.yaml, output: { second: "\${{ output.answer }}" } }
edges:
  - { from: START, to: [one, two] }
  - { from: one, to: END }
  - { from: two, to: END }
`),
      saver(),
    );
    const config = thread();
    const paused = await g.invoke({ question: "Which?" }, config);
    expect(paused.__interrupt__).toHaveLength(2);
    const state = await g.getState(config);
    const idOf = (node: string) =>
      state.tasks.find((t) => t.name === node)?.interrupts[0]?.id as string;
    const out = await g.invoke(
      new Command({ resume: { [idOf("one")]: "left", [idOf("two")]: "right" } }),
      config,
    );
    expect(out).toEqual({ question: "Which?", first: "left", second: "right" });
  });

  it("run like a hand-written parent that invokes a hand-written child in a node", async () => {
    const ChildState = Annotation.Root({
      log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
      question: Annotation<string>(),
      answer: Annotation<string>(),
    });
    const child = new StateGraph(ChildState)
      .addNode("prep", () => ({ log: ["prep"] }))
      .addNode("ask", (s) => {
        const answer = interrupt({ question: s.question }) as string;
        return { answer, log: [`answered ${answer}`] };
      })
      .addEdge(START, "prep")
      .addEdge("prep", "ask")
      .addEdge("ask", END)
      .compile();
    const ParentState = Annotation.Root({
      question: Annotation<string>(),
      answer: Annotation<string>(),
    });
    const hand = new StateGraph(ParentState)
      .addNode(
        "ask_child",
        async (s, config: LangGraphRunnableConfig) => {
          const out = await child.invoke({ question: s.question }, config);
          return { question: out.question, answer: out.answer };
        },
        { subgraphs: [child] },
      )
      .addEdge(START, "ask_child")
      .addEdge("ask_child", END)
      .compile(saver());

    const r = await expectSameRun(await compile(parent(ASK_PARENT), saver()), hand, {
      input: { question: "Deploy?" },
      resumes: ["now"],
    });
    expect(r.interrupts).toEqual([{ question: "Deploy?" }]);
    expect(r.steps).toEqual([["ask_child"], ["ask_child"]]);
    expect(r.state).toEqual({ question: "Deploy?", answer: "now" });
  });
});

describe("subgraph errors", () => {
  it("name the parent node and the child spec when the child fails", async () => {
    const g = await compile(
      parent(`state:
  n: { type: integer }
nodes:
  run_child: { kind: subgraph, graph: ./no-match.yaml }
edges:
  - { from: START, to: run_child }
  - { from: run_child, to: END }
`),
    );
    const e = await rejection(g.invoke({}));
    expect(e).toMatchObject({ name: "GraphspecRunError", code: "subgraph", node: "run_child" });
    expect(e.message).toBe(
      "node `run_child`: the subgraph `test/fixtures/compile/subgraph/no-match.yaml` failed: no case of the route from `count` matched, and the route has no `default`",
    );
    expect(e.hint).toContain("default: END");
    expect((e.cause as { code?: string }).code).toBe("route-no-match");
  });

  it("name them when the child refuses what the parent passes in", async () => {
    // validate refuses this spec (subgraph-channels); compiled unchecked, the child refuses the value.
    const g = await compile(
      parent(`state:
  ticket: { type: integer }
nodes:
  triage:
    kind: subgraph
    graph: ./triage.yaml
    input: { ticket: "\${{ state.ticket }}" }
edges:
  - { from: START, to: triage }
  - { from: triage, to: END }
`),
      { validate: false },
    );
    const e = await rejection(g.invoke({ ticket: 7 }));
    expect(e).toMatchObject({ code: "subgraph", node: "triage", field: "ticket" });
    expect(e.message).toMatch(
      /^node `triage`: the subgraph `test\/fixtures\/compile\/subgraph\/triage\.yaml` failed: the run's input wrote 7 to `ticket`: /,
    );
  });

  it("apply the child's own `limits.recursion` to the child", async () => {
    const g = await compile(
      parent(`state:
  n: { type: integer }
limits:
  recursion: 100
nodes:
  loop: { kind: subgraph, graph: ./loop.yaml }
edges:
  - { from: START, to: loop }
  - { from: loop, to: END }
`),
    );
    const e = await rejection(g.invoke({}));
    expect(e).toMatchObject({ code: "subgraph", node: "loop" });
    expect(e.message).toMatch(
      /^node `loop`: the subgraph `test\/fixtures\/compile\/subgraph\/loop\.yaml` failed: Recursion limit of 5 reached/,
    );
  });

  it("name them when the child cannot be compiled", async () => {
    const e = await rejection(
      compile(
        parent(`state:
  n: { type: integer }
nodes:
  child: { kind: subgraph, graph: ./broken.yaml }
edges:
  - { from: START, to: child }
  - { from: child, to: END }
`),
      ),
    );
    expect(e.name).toBe("CompileError");
    // The parent's own check finds the child's error (subgraph-errors), at the parent's `graph:`.
    expect(e.message).toMatch(
      /test\/fixtures\/compile\/subgraph\/parent\.yaml:\d+:\d+: subgraph `\.\/broken\.yaml` has an error at test\/fixtures\/compile\/subgraph\/broken\.yaml:\d+:\d+ \[unknown-node\]/,
    );
    expect(e.message).toContain("nowhere");
  });
});
