/**
 * What an `agent` node puts in LangGraph's `messages` stream, through the package entry's
 * executor stream, held to the bar: the same agent written by hand with LangChain's `createAgent`,
 * on the same real `@langchain/openai` client over HTTP (the OpenAI stub) and the same answers.
 * Without subgraphs it streams what the agent served as the graph itself streams — every token,
 * the tool results between — and nothing of its system prompt; with subgraphs exactly what
 * LangGraph streams for a `createAgent` node.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { END, MemorySaver, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ChatOpenAI } from "@langchain/openai";
import { createAgent } from "langchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createExecutor } from "../../src/index.js";
import { agentSpec, openaiOn } from "../support/agent-spec.js";
import { type OpenAIStub, startOpenAIStub } from "../support/openai-stub.js";

const SYSTEM = "Look orders up. INTERNAL-ONLY-INSTRUCTIONS.";
const QUESTION = "Where are my orders?";
const turns = () => [
  {
    tool_calls: [
      { name: "lookup", args: { order: "O-1" } },
      { name: "lookup", args: { order: "O-2" } },
    ],
    usage: { input_tokens: 120, output_tokens: 30 },
  },
  { text: "Both orders shipped on Monday.", usage: { input_tokens: 210, output_tokens: 9 } },
];
const shipped = ({ order }: { order: string }) => `order ${order}: shipped`;

/** One streamed message, as compared: where it came from and what it says. */
interface Seen {
  depth: number;
  type: string;
  content: unknown;
  usage: unknown;
  node?: unknown;
}

let dir: string;
const stubs: OpenAIStub[] = [];
const stub = async () => {
  const s = await startOpenAIStub(turns());
  stubs.push(s);
  return s;
};
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "graphspec-agent-stream-"));
  writeFileSync(join(dir, "package.json"), "{}\n");
  writeFileSync(
    join(dir, "tools.mjs"),
    "export const lookup = async ({ order }) => `order ${order}: shipped`;\n",
  );
});
afterAll(async () => {
  await Promise.all(stubs.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

/** The graphspec agent node's stream, through the executor. */
async function ours(subgraphs: boolean): Promise<Seen[]> {
  const { url } = await stub();
  const name = `desk${subgraphs ? "_nested" : ""}`;
  writeFileSync(
    join(dir, `${name}.yaml`),
    agentSpec({
      name,
      node: "agent",
      model: openaiOn(url),
      system: SYSTEM,
      toolsModule: "./tools.mjs",
    }),
  );
  const exec = createExecutor({ dir, checkpointer: "memory" });
  const seen: Seen[] = [];
  for await (const e of exec.stream(name, {
    input: { messages: [{ role: "user", content: QUESTION }] },
    graphStream: { modes: ["messages"], subgraphs },
  })) {
    if (e.type !== "graph_chunk" || e.mode !== "messages") continue;
    const [m, meta] = e.data as [Record<string, unknown>, Record<string, unknown>];
    seen.push({
      depth: e.namespace.length,
      type: String(m.type),
      content: m.content,
      usage: m.usage_metadata,
      node: meta.langgraph_node,
    });
  }
  return seen;
}

/** The same agent written by hand: the graph itself, or a node of a graph (`asNode`). */
async function byHand(asNode: boolean): Promise<Seen[]> {
  const { url } = await stub();
  const model = new ChatOpenAI({
    model: "gpt-4o-mini",
    apiKey: "sk-stub",
    configuration: { baseURL: url },
  });
  const lookup = tool(async (args: { order: string }) => shipped(args), {
    name: "lookup",
    description: "Look an order up.",
    schema: z.object({ order: z.string() }),
  });
  const agent = createAgent({ model, tools: [lookup], systemPrompt: SYSTEM });
  const graph = asNode
    ? new StateGraph(MessagesAnnotation)
        .addNode("agent", agent.graph as never)
        .addEdge(START, "agent")
        .addEdge("agent", END)
        .compile({ checkpointer: new MemorySaver() })
    : agent.graph;
  const seen: Seen[] = [];
  const stream = await graph.stream({ messages: [new HumanMessage(QUESTION)] } as never, {
    streamMode: ["messages"],
    subgraphs: true,
    configurable: { thread_id: "t" },
  });
  for await (const [ns, , [m, meta]] of stream as AsyncIterable<
    [string[], string, [BaseMessage, Record<string, unknown>]]
  >) {
    seen.push({
      depth: ns.length,
      type: m.getType(),
      content: m.content,
      usage: (m as { usage_metadata?: unknown }).usage_metadata,
      node: meta.langgraph_node,
    });
  }
  return seen;
}

const without = (s: Seen[], key: keyof Seen) => s.map(({ [key]: _, ...rest }) => rest);

describe("an agent node in LangGraph's messages stream", () => {
  it("without subgraphs: what a createAgent served directly streams, under the node's name", async () => {
    const [got, bar] = [await ours(false), await byHand(false)];
    expect(got.filter((s) => s.content !== "").length).toBeGreaterThan(3);
    // The hand-written agent's pieces come from its own nodes; ours are the node's.
    expect(without(got, "node")).toEqual(without(bar, "node"));
    expect(new Set(got.map((s) => s.node))).toEqual(new Set(["agent"]));
    expect(JSON.stringify(got)).not.toContain("INTERNAL-ONLY");
  });

  it("with subgraphs: what LangGraph streams for a createAgent node", async () => {
    const [got, bar] = [await ours(true), await byHand(true)];
    expect(bar.every((s) => s.depth === 1)).toBe(true);
    expect(got).toEqual(bar);
  });
});
