/**
 * `interrupt` nodes and static breakpoints: pausing, resuming (one interrupt, parallel ones by id),
 * refusing resume values that do not match `schema`, and the same runs written by hand with
 * LangGraph's `interrupt()`.
 */
import {
  Annotation,
  Command,
  END,
  interrupt,
  MemorySaver,
  START,
  StateGraph,
} from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { compile } from "../../src/compile/index.js";
import { parseSpec } from "../../src/spec/load.js";
import { expectSameRun } from "../support/equivalence.js";
import { rejection } from "./helpers.js";

const doc = (text: string) => parseSpec(text, { file: "graphs/t.yaml", root: process.cwd() });
const saver = () => ({ checkpointer: new MemorySaver() });
let threads = 0;
const thread = () => ({ configurable: { thread_id: `interrupt-${++threads}` } });

const APPROVAL = `version: 1
name: approval
state:
  draft: { type: string, default: "" }
  approved: { type: boolean, default: false }
  reviewer: { type: string }
nodes:
  ask:
    kind: interrupt
    payload:
      question: Send this reply?
      details: { draft: "\${{ state.draft }}", length: "\${{ size(state.draft) }}" }
    schema:
      type: object
      properties: { approve: { type: boolean }, reviewer: { type: string } }
      required: [approve, reviewer]
    write: { approved: "\${{ resume.approve }}", reviewer: "\${{ resume.reviewer }}" }
  send:
    kind: set
    values: { draft: "\${{ state.draft + ' (sent)' }}" }
edges:
  - { from: START, to: ask }
  - from: ask
    route:
      - { when: state.approved, to: send }
      - { default: END }
  - { from: send, to: END }
`;

/** The approval spec written by hand: a node that calls interrupt() and writes the answer. */
function handApproval() {
  const S = Annotation.Root({
    draft: Annotation<string>({ reducer: (_, b) => b, default: () => "" }),
    approved: Annotation<boolean>({ reducer: (_, b) => b, default: () => false }),
    reviewer: Annotation<string>(),
  });
  return new StateGraph(S)
    .addNode("ask", (s) => {
      const r = interrupt({
        question: "Send this reply?",
        details: { draft: s.draft, length: s.draft.length },
      }) as { approve: boolean; reviewer: string };
      return { approved: r.approve, reviewer: r.reviewer };
    })
    .addNode("send", (s) => ({ draft: `${s.draft} (sent)` }))
    .addEdge(START, "ask")
    .addConditionalEdges("ask", (s) => (s.approved ? "send" : END), ["send", END])
    .addEdge("send", END)
    .compile(saver());
}

describe("interrupt", () => {
  it("pauses with the payload (templates at any depth) and resumes with the written value", async () => {
    const g = await compile(doc(APPROVAL), saver());
    const config = thread();
    const paused = await g.invoke({ draft: "Hi" }, config);
    expect(paused.__interrupt__).toHaveLength(1);
    expect(paused.__interrupt__[0].value).toEqual({
      question: "Send this reply?",
      details: { draft: "Hi", length: 2 },
    });
    // The schema is offered to clients, which render a form from it.
    expect(paused.__interrupt__[0].response_schema).toMatchObject({
      required: ["approve", "reviewer"],
    });
    expect((await g.getState(config)).next).toEqual(["ask"]);

    const out = await g.invoke(new Command({ resume: { approve: true, reviewer: "ann" } }), config);
    expect(out).toEqual({ draft: "Hi (sent)", approved: true, reviewer: "ann" });
  });

  it("runs like the same graph written by hand with interrupt(), on both routes", async () => {
    for (const approve of [true, false]) {
      const r = await expectSameRun(await compile(doc(APPROVAL), saver()), handApproval(), {
        input: { draft: "Hello" },
        resumes: [{ approve, reviewer: "bo" }],
      });
      expect(r.interrupts).toHaveLength(1);
      expect(r.steps).toEqual(approve ? [["ask"], ["ask"], ["send"]] : [["ask"], ["ask"]]);
      expect(r.state).toMatchObject({ approved: approve, reviewer: "bo" });
    }
  });

  it("types `resume` by the schema (a number stays a double)", async () => {
    const g = await compile(
      doc(`version: 1
name: t
state:
  score: { type: number }
nodes:
  rate:
    kind: interrupt
    payload: Rate it
    schema: { type: number }
    write: { score: "\${{ resume + 0.5 }}" }
edges:
  - { from: START, to: rate }
  - { from: rate, to: END }
`),
      saver(),
    );
    const config = thread();
    await g.invoke({}, config);
    expect(await g.invoke(new Command({ resume: 2 }), config)).toEqual({ score: 2.5 });
  });

  it("keeps nothing without `write`, and pauses with null without `payload`", async () => {
    const g = await compile(
      doc(`version: 1
name: t
state:
  log: { type: array, items: { type: string }, reducer: append, default: [] }
nodes:
  wait: { kind: interrupt }
  done: { kind: set, values: { log: done } }
edges:
  - { from: START, to: wait }
  - { from: wait, to: done }
  - { from: done, to: END }
`),
      saver(),
    );
    const config = thread();
    const paused = await g.invoke({}, config);
    expect(paused.__interrupt__[0].value).toBeNull();
    expect(await g.invoke(new Command({ resume: { anything: 1 } }), config)).toEqual({
      log: ["done"],
    });
  });

  it("pauses parallel interrupts in one step and resumes them by id", async () => {
    const g = await compile(
      doc(`version: 1
name: t
state:
  a: { type: string }
  b: { type: integer }
nodes:
  ask_a: { kind: interrupt, payload: a?, schema: { type: string }, write: a }
  ask_b: { kind: interrupt, payload: b?, schema: { type: integer }, write: b }
edges:
  - { from: START, to: [ask_a, ask_b] }
  - { from: ask_a, to: END }
  - { from: ask_b, to: END }
`),
      saver(),
    );
    const config = thread();
    const paused = await g.invoke({}, config);
    const ids = Object.fromEntries(
      paused.__interrupt__.map((i: { id: string; value: string }) => [i.value, i.id]),
    );
    expect(Object.keys(ids).sort()).toEqual(["a?", "b?"]);

    // `b` gets a string: refused and asked again under a new id; `a` is answered.
    const again = await g.invoke(
      new Command({ resume: { [ids["a?"]]: "yes", [ids["b?"]]: "seven" } }),
      config,
    );
    expect(again.a).toBe("yes");
    expect(again.__interrupt__).toHaveLength(1);
    const reasked = again.__interrupt__[0];
    expect(reasked.id).not.toBe(ids["b?"]);
    expect(reasked.value).toMatchObject({ payload: "b?", error: { resume: "seven" } });

    const out = await g.invoke(new Command({ resume: { [reasked.id]: 7 } }), config);
    expect(out).toEqual({ a: "yes", b: 7 });
  });
});

describe("a refused resume", () => {
  it("keeps the run paused, shows why beside the payload, and checks the next resume", async () => {
    const g = await compile(doc(APPROVAL), saver());
    const config = thread();
    await g.invoke({ draft: "Hi" }, config);

    const refused = await g.invoke(new Command({ resume: { approve: "yes" } }), config);
    expect(refused.__interrupt__).toHaveLength(1);
    const value = refused.__interrupt__[0].value;
    expect(value.payload).toEqual({
      question: "Send this reply?",
      details: { draft: "Hi", length: 2 },
    });
    expect(value.error.resume).toEqual({ approve: "yes" });
    expect(value.error.message).toMatch(/^the resume value was refused: /);
    expect(value.error.message).toContain("`resume.approve` must be");
    expect(value.error.message).toContain("reviewer");
    expect(typeof value.error.hint).toBe("string");

    // Paused: the task holds the new interrupt. (LangGraph counts the stored resume values as the
    // task's writes, so `next` is empty — as for any node that calls interrupt() a second time.)
    const state = await g.getState(config);
    expect(state.tasks.map((t) => [t.name, t.interrupts.map((i) => i.value)])).toEqual([
      ["ask", [value]],
    ]);
    expect(state.values).toEqual({ draft: "Hi", approved: false });

    // A second bad value is refused the same way; the first good one goes through.
    const twice = await g.invoke(new Command({ resume: 42 }), config);
    expect(twice.__interrupt__[0].value.error).toMatchObject({
      resume: 42,
      message: expect.stringContaining("`resume` must be"),
    });
    const out = await g.invoke(new Command({ resume: { approve: true, reviewer: "cy" } }), config);
    expect(out).toEqual({ draft: "Hi (sent)", approved: true, reviewer: "cy" });
  });
});

describe("a refused resume, written by hand", () => {
  it("is LangGraph's validation loop: interrupt() again with the payload and the error", async () => {
    const S = Annotation.Root({ score: Annotation<number>() });
    const hint = "resume again with a value that matches the `schema` of node `rate`";
    const hand = new StateGraph(S)
      .addNode("rate", () => {
        let error: object | undefined;
        for (;;) {
          const r: unknown = interrupt(error ? { payload: "Rate it", error } : "Rate it");
          if (typeof r === "number" && r >= 0) return { score: r };
          const why =
            typeof r === "number" ? "must be >= 0" : `must be a number, not the string "${r}"`;
          error = { message: `the resume value was refused: \`resume\` ${why}`, hint, resume: r };
        }
      })
      .addEdge(START, "rate")
      .addEdge("rate", END)
      .compile(saver());
    const g = await compile(
      doc(`version: 1
name: t
state:
  score: { type: number }
nodes:
  rate: { kind: interrupt, payload: Rate it, schema: { type: number, minimum: 0 }, write: score }
edges:
  - { from: START, to: rate }
  - { from: rate, to: END }
`),
      saver(),
    );
    const r = await expectSameRun(g, hand, { input: {}, resumes: ["ten", -1, 3] });
    expect(r.interrupts).toHaveLength(3);
    expect(r.interrupts[2]).toEqual({
      payload: "Rate it",
      error: { message: "the resume value was refused: `resume` must be >= 0", hint, resume: -1 },
    });
    expect(r.state).toEqual({ score: 3 });
  });
});

describe("interrupt errors", () => {
  it("needs a checkpointer, and says how to give one", async () => {
    const g = await compile(doc(APPROVAL));
    const e = await rejection(g.invoke({ draft: "Hi" }));
    expect(e).toMatchObject({ name: "GraphspecRunError", code: "no-checkpointer", node: "ask" });
    expect(e.message).toBe(
      "node `ask` pauses the run for a person, which needs a checkpointer to keep the paused run",
    );
    expect(e.hint).toContain("checkpointer: new MemorySaver()");
  });

  it("reports a payload expression that fails, with its place in the spec", async () => {
    const g = await compile(
      doc(`version: 1
name: t
state:
  draft: { type: string }
nodes:
  ask: { kind: interrupt, payload: { draft: "\${{ state.draft }}" } }
edges:
  - { from: START, to: ask }
  - { from: ask, to: END }
`),
      saver(),
    );
    const e = await rejection(g.invoke({}, thread()));
    expect(e).toMatchObject({ code: "expression", node: "ask" });
    expect(e.message).toMatch(/^node `ask`: the expression at graphs\/t\.yaml:6:\d+ failed: /);
  });

  it("reports a resume value that cannot be written (no schema to refuse it)", async () => {
    const g = await compile(
      doc(`version: 1
name: t
state:
  count: { type: integer }
nodes:
  ask: { kind: interrupt, write: count }
edges:
  - { from: START, to: ask }
  - { from: ask, to: END }
`),
      saver(),
    );
    const config = thread();
    await g.invoke({}, config);
    const e = await rejection(g.invoke(new Command({ resume: "many" }), config));
    expect(e).toMatchObject({ code: "invalid-write", node: "ask", field: "count" });
    expect(e.message).toBe(
      'node `ask` wrote "many" to `count`: `count` must be an integer, not the string "many"',
    );
  });
});

describe("static breakpoints", () => {
  const SPEC = (interrupts: string) => `version: 1
name: t
state:
  log: { type: array, items: { type: string }, reducer: append, default: [] }
nodes:
  a: { kind: set, values: { log: a } }
  b: { kind: set, values: { log: b } }
  c: { kind: set, values: { log: c } }
edges:
  - { from: START, to: a }
  - { from: a, to: b }
  - { from: b, to: c }
  - { from: c, to: END }
interrupts: ${interrupts}
`;

  it("pause before and after the listed nodes; a resume without a value continues", async () => {
    const g = await compile(doc(SPEC("{ before: [b], after: [b] }")), saver());
    const config = thread();
    const first = await g.invoke({}, config);
    expect(first.log).toEqual(["a"]);
    expect((await g.getState(config)).next).toEqual(["b"]);
    const second = await g.invoke(null, config);
    expect(second.log).toEqual(["a", "b"]);
    expect((await g.getState(config)).next).toEqual(["c"]);
    expect(await g.invoke(null, config)).toEqual({ log: ["a", "b", "c"] });
  });

  it("run like LangGraph's interruptBefore / interruptAfter", async () => {
    const S = Annotation.Root({
      log: Annotation<string[]>({ reducer: (x, y) => x.concat(y), default: () => [] }),
    });
    const hand = new StateGraph(S)
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", () => ({ log: ["b"] }))
      .addNode("c", () => ({ log: ["c"] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", "c")
      .addEdge("c", END)
      .compile({ ...saver(), interruptBefore: ["b"], interruptAfter: ["a", "c"] });
    const g = await compile(doc(SPEC("{ before: [b], after: [a, c] }")), saver());
    const r = await expectSameRun(g, hand, { input: {}, resumes: ["go", "go", "go"] });
    expect(r.steps).toEqual([["a"], ["b"], ["c"]]);
    expect(r.interrupts).toEqual([]);
    expect(r.state).toEqual({ log: ["a", "b", "c"] });
  });
});
