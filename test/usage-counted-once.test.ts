/**
 * Each model call's tokens are counted once, by every consumer of a run: the executor's `usage`
 * events and its RunResult, an SDK client summing `usage_metadata` over `messages-tuple` (with
 * and without `streamSubgraphs`), the page's fold of its stream (tasks, messages-tuple, events),
 * and the thread's messages read back — for an agent (and an llm + tools loop) making parallel
 * tool calls over several model calls and two conversation turns, on the real ChatOpenAI and ChatAnthropic over HTTP
 * against the provider simulator. The expected totals are what the simulator reported.
 */
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createExecutor,
  type Executor,
  folderCatalog,
  type RunningServer,
  startServer,
} from "../src/index.js";
import {
  applyEvent,
  emptyProgress,
  progressFromState,
  RUN_STREAM_MODES,
} from "../src/web/runs/run-progress.js";
import type { SimTurn, SimUsage } from "./support/provider-sim/script.js";
import { type ProviderSim, startProviderSim } from "./support/provider-sim/server.js";

const DIR = join(import.meta.dirname, "fixtures/usage/graphs");

/** One conversation turn of the graph's model: parallel calls, one more call, then the answer. */
const agentTurn = (n: number): SimTurn[] => [
  {
    tool_calls: [
      { name: "lookup", args: { id: `A-${n}` } },
      { name: "lookup", args: { id: `B-${n}` } },
    ],
    usage: { input_tokens: 20 + n, output_tokens: 7 },
  },
  {
    tool_calls: [{ name: "lookup", args: { id: `C-${n}` } }],
    usage: { input_tokens: 40 + n, output_tokens: 3 },
  },
  { text: `Both are open (turn ${n}).`, usage: { input_tokens: 60 + n, output_tokens: 11 } },
];

const total = (us: SimUsage[]) => {
  const input = us.reduce((a, u) => a + u.input_tokens, 0);
  const output = us.reduce((a, u) => a + u.output_tokens, 0);
  return { input, output, total: input + output };
};

const input = (text: string) => ({ messages: [{ role: "user", content: text }] });

type Json = Record<string, unknown>;
/** What a chat client sums: `usage_metadata` of every `messages-tuple` message. */
function sumTuples(events: { event: string; data: unknown }[]) {
  const sum = { input: 0, output: 0, total: 0 };
  for (const e of events) {
    if (!e.event.startsWith("messages") || !Array.isArray(e.data)) continue;
    const u = (e.data[0] as Json | undefined)?.usage_metadata as Json | undefined;
    sum.input += Number(u?.input_tokens ?? 0);
    sum.output += Number(u?.output_tokens ?? 0);
    sum.total += Number(u?.total_tokens ?? 0);
  }
  return sum;
}

let sim: ProviderSim;
let exec: Executor;
let server: RunningServer;
let client: Client;
beforeAll(async () => {
  sim = await startProviderSim();
  exec = createExecutor({
    dir: DIR,
    checkpointer: "memory",
    env: { SIM_OPENAI_URL: sim.openaiUrl, SIM_ANTHROPIC_URL: sim.anthropicUrl, SIM_KEY: "sk-sim" },
  });
  server = await startServer({ exec, graphs: await folderCatalog(DIR), auth: undefined, port: 0 });
  client = new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
});
afterAll(async () => {
  await server?.close(1000);
  await sim?.close();
});

/** Scripts the simulator for `turns` agent turns; gives the usage it reports for them. */
function script(...turns: number[]): () => SimUsage[] {
  const from = sim.reported.length;
  sim.push(...turns.flatMap(agentTurn));
  return () => sim.reported.slice(from);
}

// `agent-*`: an agent node; `loop-*`: an llm node and a tools node in a loop.
const GRAPHS = ["agent-openai", "agent-anthropic", "loop-openai", "loop-anthropic"];

describe.each(GRAPHS)("usage of %s, counted once", (graph) => {
  it("by the executor: one usage event per model call, their running total the result's", async () => {
    const reported = script(1);
    const events = [];
    for await (const e of exec.stream(graph, { input: input("Look A and B up.") })) events.push(e);
    const final = events.at(-1);
    if (final?.type !== "completed") throw new Error(`the run ended ${JSON.stringify(final)}`);
    const calls = reported();
    expect(calls).toHaveLength(3);
    const want = total(calls);
    expect(final.result.usage).toEqual({
      inputTokens: want.input,
      outputTokens: want.output,
      totalTokens: want.total,
    });
    const running = events.flatMap((e) => (e.type === "usage" ? [e.usage] : []));
    expect(running.map((u) => u.inputTokens)).toEqual(
      calls.map((_, i) => total(calls.slice(0, i + 1)).input),
    );
  });

  for (const streamSubgraphs of [false, true]) {
    it(`by an SDK client summing messages-tuple (streamSubgraphs: ${streamSubgraphs}), over two turns`, async () => {
      const { thread_id } = await client.threads.create();
      let sum = { input: 0, output: 0, total: 0 };
      const reported = script(1, 2);
      for (const text of ["Look A and B up.", "And again."]) {
        const events = [];
        for await (const e of client.runs.stream(thread_id, graph, {
          input: input(text),
          streamMode: "messages-tuple",
          streamSubgraphs,
        }))
          events.push(e);
        const s = sumTuples(events);
        sum = {
          input: sum.input + s.input,
          output: sum.output + s.output,
          total: sum.total + s.total,
        };
      }
      expect(reported()).toHaveLength(6);
      expect(sum).toEqual(total(reported()));
      // The thread's messages, read back, count the same.
      const state = await client.threads.getState(thread_id);
      expect(progressFromState(state.values, [], []).usage).toEqual(total(reported()));
    });
  }

  it("by the page: its fold of tasks, messages-tuple and events, and its cost", async () => {
    const { thread_id } = await client.threads.create();
    const reported = script(1);
    let progress = emptyProgress();
    for await (const e of client.runs.stream(thread_id, graph, {
      input: input("Look A and B up."),
      streamMode: [...RUN_STREAM_MODES],
      streamSubgraphs: true,
    }))
      progress = applyEvent(progress, e.event, e.data);
    expect(reported()).toHaveLength(3);
    expect(progress.usage).toEqual(total(reported()));
    expect(Object.keys(progress.usageByMessage)).toHaveLength(3);
  });
});
