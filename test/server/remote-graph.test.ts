/**
 * A hand-written LangGraph.js program that uses a served graph through LangGraph's own
 * `RemoteGraph` (`@langchain/langgraph/remote`, the SDK client underneath), against graphspec's
 * server — and the same program with the graph compiled in process (`compile(spec)`), side by
 * side: what it gets back must be the same. `RemoteGraph` streams every call with
 * `ifNotExists: "create"` on the caller's thread id, reads `updates` for interrupts, and reads and
 * writes state through `getState`, `getStateHistory` and `updateState`; as a node of a local
 * graph, its interrupt pauses the local graph; a `Command({ resume })` sent through it answers the
 * served graph's interrupt. (Resuming the local graph does not resume a RemoteGraph node: the
 * node is called again with its input, and RemoteGraph sends no resume — on LangGraph's server
 * too, so it is not tested here.)
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import {
  Annotation,
  Command,
  END,
  MemorySaver,
  START,
  StateGraph,
  type StateSnapshot,
} from "@langchain/langgraph";
import { RemoteGraph } from "@langchain/langgraph/remote";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../src/index.js";
import { GRAPHS, type Harness, startHarness } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

const remote = (graphId: string) => new RemoteGraph({ graphId, client: h.client() as never });
const local = (graph: string) =>
  compile(join(GRAPHS, `${graph}.yaml`), { checkpointer: new MemorySaver() });
const onThread = () => ({ configurable: { thread_id: randomUUID() } });

/** What an invoke paused on: LangGraph puts the interrupts under `__interrupt__`. */
const asks = (out: object) =>
  ((out as { __interrupt__?: { value: unknown }[] }).__interrupt__ ?? []).map((i) => i.value);

/** What a state history says, without the ids and times that differ from run to run. */
async function historyOf(
  g: { getStateHistory(c: object): AsyncIterable<StateSnapshot> },
  c: object,
) {
  const out: unknown[] = [];
  for await (const s of g.getStateHistory(c))
    out.push({
      values: s.values,
      next: s.next,
      step: s.metadata?.step,
      source: s.metadata?.source,
    });
  return out;
}

describe("RemoteGraph (LangGraph's client for a served graph) on graphspec's server", () => {
  it("invoke, stream, getState, getStateHistory and updateState answer as the graph in process", async () => {
    const [there, here] = [remote("three-steps"), await local("three-steps")];
    const [a, b] = [onThread(), onThread()];
    expect(await there.invoke({}, a)).toEqual(await here.invoke({}, b));
    expect(await historyOf(there, a)).toEqual(await historyOf(here, b));

    const [s, t] = [await there.getState(a), await here.getState(b)];
    expect(s.values).toEqual(t.values);
    expect(s.next).toEqual(t.next);
    expect(s.config.configurable?.checkpoint_id).toEqual(expect.any(String));

    // Written through the `sum` reducer on both sides: 3 + 10.
    await there.updateState(a, { n: 10 });
    await here.updateState(b, { n: 10 });
    expect((await there.getState(a)).values).toEqual((await here.getState(b)).values);
    expect((await there.getState(a)).values).toMatchObject({ n: 13 });

    const updates = async (g: typeof there | typeof here) => {
      const out: unknown[] = [];
      for await (const u of await g.stream({}, { ...onThread(), streamMode: "updates" }))
        out.push(u);
      return out;
    };
    expect(await updates(there)).toEqual(await updates(here));
  });

  it("as a node of a hand-written graph: its interrupt pauses the graph, as the graph in process does", async () => {
    const State = Annotation.Root({ draft: Annotation<string> });
    const parentWith = (node: RemoteGraph | Awaited<ReturnType<typeof local>>) =>
      new StateGraph(State)
        .addNode("approval", node as never)
        .addEdge(START, "approval")
        .addEdge("approval", END)
        .compile({ checkpointer: new MemorySaver() });
    const [there, here] = [parentWith(remote("approval")), parentWith(await local("approval"))];
    const [a, b] = [onThread(), onThread()];
    const asked = asks(await there.invoke({ draft: "Hello" }, a));
    expect(asked).toEqual([{ question: "Send this reply?", draft: "Hello" }]);
    expect(asked).toEqual(asks(await here.invoke({ draft: "Hello" }, b)));
    expect((await there.getState(a)).next).toEqual((await here.getState(b)).next);
    // The served thread is the caller's thread id, paused at the same node.
    expect((await h.client().threads.getState(a.configurable.thread_id)).next).toEqual(["ask"]);
  });

  it("a Command({ resume }) through RemoteGraph answers the served graph's interrupt", async () => {
    const [there, here] = [remote("approval"), await local("approval")];
    const [a, b] = [onThread(), onThread()];
    // At the top, RemoteGraph throws the interrupt (a GraphInterrupt) where a graph in process
    // returns it under `__interrupt__`: RemoteGraph's own way, the same on LangGraph's server.
    const thrown = await there.invoke({ draft: "Hello" }, a).catch((e: unknown) => e);
    expect((thrown as Error).name).toBe("GraphInterrupt");
    expect((thrown as { interrupts: { value: unknown }[] }).interrupts.map((i) => i.value)).toEqual(
      asks(await here.invoke({ draft: "Hello" }, b)),
    );
    // LangGraph's Command.toJSON() sends `goto: []` with the resume: no goto (it was a 422).
    const sent = await there.invoke(new Command({ resume: true }), a);
    expect(sent).toEqual(await here.invoke(new Command({ resume: true }), b));
    expect(sent).toEqual({ draft: "Hello (sent)", approved: true, log: ["prepared", "sent"] });
  });

  it("draws the served graph as the graph in process draws", async () => {
    const there = await remote("approval").getGraphAsync();
    const here = (await local("approval")).getGraph();
    const ids = (g: { nodes: Record<string, unknown> }) => Object.keys(g.nodes).sort();
    expect(ids(there)).toEqual(ids(here));
    const edges = (g: { edges: { source: string; target: string; conditional?: boolean }[] }) =>
      g.edges.map((e) => `${e.source}->${e.target}`).sort();
    expect(edges(there)).toEqual(edges(here));
  });
});
