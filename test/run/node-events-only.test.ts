/**
 * `graphStream.nodeEventsOnly` (the server's runs): the stream modes' chunks and the nodes' starts
 * and ends, as a full stream gives them — same nodes, steps and chunks, resumes and subgraphs
 * included — and none of the events it leaves out (tokens, tools, usage), which is what lets the
 * run go through LangGraph's `stream()` instead of `streamEvents()`.
 */
import { describe, expect, it } from "vitest";
import { createExecutor, type RunEvent, type StreamOptions } from "../../src/index.js";

const context = { user_id: "u-42" };
const scripts = {
  "support-triage": [
    { structured: { priority: "low", reason: "billing" } },
    { tool_calls: [{ name: "lookup_ticket", args: { ticket_id: "T-1002" } }] },
    "It is open and being checked.",
  ],
};

const collect = async (events: AsyncIterable<RunEvent>) => {
  const out: RunEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
};

/** A run's events, and the same run's with `nodeEventsOnly`, each on a new executor. */
async function bothWays(graph: string, opts: StreamOptions, resume?: StreamOptions) {
  const ways = [];
  for (const nodeEventsOnly of [false, true]) {
    const exec = createExecutor({ checkpointer: "memory", scripts });
    const graphStream = { ...opts.graphStream, nodeEventsOnly };
    const first = await collect(exec.stream(graph, { ...opts, graphStream }));
    const then = resume
      ? await collect(
          exec.stream(graph, { ...resume, graphStream: { ...resume.graphStream, nodeEventsOnly } }),
        )
      : [];
    await exec.close();
    ways.push([...first, ...then]);
  }
  return { full: ways[0]!, lean: ways[1]! };
}

const KEPT = new Set(["run_start", "node_start", "node_end", "graph_chunk", "interrupt"]);
const FINAL = new Set(["completed", "interrupted", "failed"]);
/** The events `nodeEventsOnly` keeps, the final one by its type. */
const kept = (events: RunEvent[]) =>
  events.flatMap((e) =>
    KEPT.has(e.type) ? byType([e], e.type) : FINAL.has(e.type) ? [{ type: e.type }] : [],
  );
/** The events of a type, without the ids that differ from run to run (messages', interrupts'). */
const byType = (events: RunEvent[], type: string): unknown[] =>
  JSON.parse(
    JSON.stringify(
      events.filter((e) => e.type === type),
      (k, v) => (k === "id" ? undefined : v),
    ),
  );

describe("graphStream.nodeEventsOnly", () => {
  it("gives a full stream's nodes, steps and chunks, and no tokens, tools or usage", async () => {
    const { full, lean } = await bothWays("support-triage", {
      input: { ticket: "T-1002" },
      context,
      threadId: "t1",
      graphStream: { modes: ["updates", "values"] },
    });
    // The full stream has the events left out: the comparison means something.
    expect(byType(full, "token").length).toBeGreaterThan(0);
    expect(byType(full, "tool_call")).toHaveLength(1);
    for (const left of ["token", "tool_call", "tool_result", "usage", "custom"])
      expect(byType(lean, left), left).toEqual([]);
    for (const type of ["node_start", "node_end", "graph_chunk"])
      expect(byType(lean, type), type).toEqual(byType(full, type));
    expect(byType(lean, "node_start")).toEqual([
      { type: "node_start", node: "classify", step: 1 },
      { type: "node_start", node: "investigate", step: 2 },
    ]);
    // Each node starts before its chunks and the run's end comes last, as in the full stream.
    expect(lean[0]!.type).toBe("run_start");
    expect(lean[1]).toMatchObject({ type: "node_start", node: "classify" });
    expect(lean.at(-1)!.type).toBe("completed");
  });

  it("a paused run and its resume: the interrupt, then the steps going on from the thread's", async () => {
    const pausing = {
      "support-triage": [{ structured: { priority: "urgent", reason: "locked out" } }],
    };
    const ways = [];
    for (const nodeEventsOnly of [false, true]) {
      const exec = createExecutor({ checkpointer: "memory", scripts: pausing });
      const graphStream = { modes: ["updates" as const], nodeEventsOnly };
      const first = await collect(
        exec.stream("support-triage", {
          input: { ticket: "T-1" },
          context,
          threadId: "s1",
          graphStream,
        }),
      );
      const resumed = await collect(
        exec.stream("support-triage", { threadId: "s1", resume: true, context, graphStream }),
      );
      await exec.close();
      ways.push({ first, resumed });
    }
    const [full, lean] = ways as [(typeof ways)[0], (typeof ways)[0]];
    expect(lean.first.slice(-2).map((e) => e.type)).toEqual(["interrupt", "interrupted"]);
    expect(kept(lean.first)).toEqual(kept(full.first));
    expect(byType(lean.resumed, "node_start")).toEqual(byType(full.resumed, "node_start"));
    expect(byType(lean.resumed, "node_start")[0]).toMatchObject({ node: "approval" });
    expect(byType(lean.resumed, "graph_chunk")).toEqual(byType(full.resumed, "graph_chunk"));
  });
});
