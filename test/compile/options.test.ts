/**
 * The common node options lowered onto LangGraph's own (retry, cache, timeout, defer, on_error),
 * each checked against the same graph written by hand with LangGraph's options.
 */
import { Annotation, Command, END, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import { InMemoryCache } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { compile } from "../../src/compile/index.js";
import { expectSameRun } from "../support/equivalence.js";
import { rejection, specDoc } from "./helpers.js";

const State = Annotation.Root({
  log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  failure: Annotation<unknown>(),
});
const HEADER = `version: 1
name: t
state:
  log: { type: array, items: { type: string }, reducer: append, default: [] }
  failure: { type: any }
`;
const saver = () => ({ checkpointer: new MemorySaver() });

/** A callback handler counting the starts of node `name`: one per attempt. */
function startsOf(name: string) {
  let n = 0;
  const starts = {
    handleChainStart: (...args: unknown[]) => {
      // LangChain passes the run's name eighth (chain, inputs, runId, parent, tags, metadata, type, name).
      if (args[7] === name) n++;
    },
  };
  return { starts, calls: () => n };
}

describe("retry", () => {
  it("retries a failing node until it succeeds", async () => {
    const g = await compile(
      specDoc(`${HEADER}nodes:
  a: { kind: function, module: ./flaky.ts, export: flaky, retry: { max_attempts: 3, initial_interval_ms: 1, jitter: false } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`),
    );
    const out = await g.invoke({});
    expect(out.log[0]).toMatch(/^ok after \d+$/);
  });

  it("does not retry a spec mistake (a bad write fails the same way every time)", async () => {
    const { starts, calls } = startsOf("a");
    const g = await compile(
      specDoc(`${HEADER}nodes:
  a: { kind: function, module: ./flaky.ts, export: typo, retry: { max_attempts: 5, initial_interval_ms: 1 } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`),
    );
    const e = await rejection(g.invoke({}, { callbacks: [starts] }));
    expect(e).toMatchObject({ code: "invalid-write" });
    expect(calls()).toBe(1);
  });
});

describe("retry of a tool node", () => {
  const spec = (tool: string) =>
    specDoc(`${HEADER}tools:
  ${tool}: { module: ./tools.ts }
nodes:
  a:
    kind: tool
    tool: ${tool}
    write: { log: "\${{ result }}" }
    retry: { max_attempts: 3, initial_interval_ms: 1, jitter: false }
    on_error: { write: { log: "\${{ error.message }}" } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`);

  it("retries the tool's own failure, as it retries a function's", async () => {
    const g = await compile(spec("unsteady"));
    expect((await g.invoke({})).log).toEqual(["ok on attempt 3"]);
  });

  it("does not retry a failure retrying cannot fix (a 404): the handler sees the first attempt's", async () => {
    const g = await compile(spec("missing"));
    expect((await g.invoke({})).log).toEqual([
      "node `a`: tool `missing` failed: 404 not found on attempt 1",
    ]);
  });

  it("does not retry arguments the tool's schema refuses (the same every time)", async () => {
    const { starts, calls } = startsOf("a");
    const g = await compile(
      specDoc(`${HEADER}tools:
  account: { module: ./tools.ts }
nodes:
  a: { kind: tool, tool: account, args: { user_id: u-1 }, retry: { max_attempts: 5, initial_interval_ms: 1 } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`),
      { validate: false },
    );
    const e = await rejection(g.invoke({}, { callbacks: [starts] }));
    expect(e).toMatchObject({ code: "tool-error" });
    expect(calls()).toBe(1);
  });

  it("a retry prints nothing: stdout is the CLI's (`--json`), not LangGraph's retry log", async () => {
    const printed: unknown[] = [];
    const log = console.log;
    console.log = (...m: unknown[]) => printed.push(m);
    try {
      const g = await compile(
        specDoc(`${HEADER}nodes:
  a: { kind: function, module: ./flaky.ts, export: flaky, retry: { max_attempts: 3, initial_interval_ms: 1, jitter: false } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`),
      );
      expect((await g.invoke({})).log[0]).toMatch(/^ok after \d+$/);
    } finally {
      console.log = log;
    }
    expect(printed).toEqual([]);
  });
});

describe("on_error", () => {
  const spec = (onError: string) =>
    specDoc(`${HEADER}nodes:
  a: { kind: function, module: ./flaky.ts, export: broken, on_error: ${onError} }
  b: { kind: set, values: { log: b } }
  recover: { kind: set, values: { log: recovered } }
edges:
  - { from: START, to: a }
  - { from: a, to: b }
  - { from: b, to: END }
  - { from: recover, to: END }
`);
  const broken = () => {
    throw new TypeError("broken on purpose");
  };
  const errorOf = (failure: { error?: Error } | undefined) => ({
    message: failure?.error?.message,
    type: failure?.error?.name,
    node: "a",
  });

  it("goto: writes the error and runs another node instead of the node's edges", async () => {
    const hand = new StateGraph(State)
      .addNode("a", broken, {
        errorHandler: (_s, failure) =>
          new Command({
            goto: "recover",
            update: { failure: errorOf(failure as never), log: ["failed in a: broken on purpose"] },
          }),
        ends: ["recover"],
      })
      .addNode("b", () => ({ log: ["b"] }))
      .addNode("recover", () => ({ log: ["recovered"] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", END)
      .addEdge("recover", END)
      .compile(saver());
    const compiled = await compile(
      spec(
        `{ goto: recover, write: { failure: "\${{ error }}", log: "\${{ 'failed in ' + error.node + ': ' + error.message }}" } }`,
      ),
      saver(),
    );
    const run = await expectSameRun(compiled, hand, { input: {} });
    expect(run.state).toEqual({
      log: ["failed in a: broken on purpose", "recovered"],
      failure: { message: "broken on purpose", type: "TypeError", node: "a" },
    });
  });

  it("without goto: writes the error and continues along the node's edges", async () => {
    const g = await compile(spec(`{ write: failure }`));
    expect(await g.invoke({})).toEqual({
      log: ["b"],
      failure: { message: "broken on purpose", type: "TypeError", node: "a" },
    });
  });

  it("a failure inside the handler's own write is reported, not swallowed", async () => {
    const g = await compile(spec(`{ write: { log: "\${{ error }}" } }`), { validate: false });
    const e = await rejection(g.invoke({}));
    expect(e).toMatchObject({ code: "invalid-write", node: "a" });
    expect(e.message).toMatch(/^the `on_error` of node `a` wrote/);
  });
});

describe("timeout, defer, cache", () => {
  it("timeout_ms fails a node that runs too long", async () => {
    const g = await compile(
      specDoc(`${HEADER}nodes:
  a: { kind: function, module: ./flaky.ts, export: slow, timeout_ms: 50 }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`),
    );
    const e = await rejection(g.invoke({}));
    expect(e.name).toBe("NodeTimeoutError");
  });

  it("timeout with on_error: the error handler sees the timeout", async () => {
    const g = await compile(
      specDoc(`${HEADER}nodes:
  a: { kind: function, module: ./flaky.ts, export: slow, timeout_ms: 50, on_error: { write: { log: "\${{ error.type }}" } } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`),
    );
    expect((await g.invoke({})).log).toEqual(["NodeTimeoutError"]);
  });

  it("defer waits until the parallel branches have finished", async () => {
    const compiled = await compile(
      specDoc(`${HEADER}nodes:
  a: { kind: set, values: { log: a } }
  b: { kind: set, values: { log: b } }
  b2: { kind: set, values: { log: b2 } }
  summary: { kind: set, defer: true, values: { log: "\${{ 'saw ' + string(size(state.log)) }}" } }
edges:
  - { from: START, to: [a, b] }
  - { from: a, to: summary }
  - { from: b, to: b2 }
  - { from: b2, to: summary }
  - { from: summary, to: END }
`),
      saver(),
    );
    const hand = new StateGraph(State)
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", () => ({ log: ["b"] }))
      .addNode("b2", () => ({ log: ["b2"] }))
      .addNode("summary", (s) => ({ log: [`saw ${s.log.length}`] }), { defer: true })
      .addEdge(START, "a")
      .addEdge(START, "b")
      .addEdge("a", "summary")
      .addEdge("b", "b2")
      .addEdge("b2", "summary")
      .addEdge("summary", END)
      .compile(saver());
    const run = await expectSameRun(compiled, hand, { input: {} });
    expect((run.state as { log: string[] }).log).toEqual(["a", "b", "b2", "saw 3"]);
  });

  it("defer does not wait for a map's runs sent in the same step (LangGraph's Send; docs/spec.md says so)", async () => {
    const g = await compile(
      specDoc(`${HEADER}  items: { type: array, items: { type: string }, default: [a, b] }
  item: { type: string }
nodes:
  plan: { kind: set, values: { log: plan } }
  work: { kind: set, values: { log: "\${{ 'work ' + state.item }}" } }
  after: { kind: set, defer: true, values: { log: "\${{ 'after ' + string(size(state.log)) }}" } }
edges:
  - { from: START, to: plan }
  - from: plan
    map: { over: state.items, to: work, with: { item: "\${{ item }}" } }
  - { from: plan, to: after }
  - { from: work, to: END }
  - { from: after, to: END }
`),
    );
    // `after` ran in the step of the two `work` runs: it saw only `plan`'s write.
    expect((await g.invoke({})).log).toEqual(["plan", "after 1", "work a", "work b"]);
  });

  it("cache: a node with the same input runs once", async () => {
    const spec = specDoc(`${HEADER}nodes:
  a: { kind: function, module: ./flaky.ts, export: flaky, cache: { ttl_s: 60 }, retry: { max_attempts: 3, initial_interval_ms: 1 } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`);
    const g = await compile(spec, { nodeCache: new InMemoryCache() });
    const first = await g.invoke({});
    // flaky() answers differently on every third call; a cached result is the same answer.
    expect(await g.invoke({})).toEqual(first);
  });
});
