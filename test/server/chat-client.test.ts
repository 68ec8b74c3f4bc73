/**
 * A chat client as users write one: the official SDK, `messages-tuple` stream mode, no subgraph
 * flag, against `graphspec serve` (the built CLI) with an agent graph whose model is the real
 * `@langchain/openai` client over HTTP (the OpenAI stub). It gets the agent's answers token by
 * token and its tool results in between, as from a LangGraph agent served directly; never the
 * system prompt; each model call's usage once; and, when the provider refuses, an `error` event
 * with a code and a hint. With `streamSubgraphs` the agent's messages come namespaced under its
 * node, as LangGraph gives them.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentSpec, openaiOn } from "../support/agent-spec.js";
import { BIN, scratchDir } from "../support/cli.js";
import { type OpenAIStub, startOpenAIStub } from "../support/openai-stub.js";
import { collect } from "./harness.js";

const SYSTEM = "You are the order desk. INTERNAL-ONLY-INSTRUCTIONS.";
const ANSWER = "Both orders shipped on Monday.";

/** An agent graph on the stub at `url`. */
const agentGraph = (name: string, url: string) =>
  agentSpec({
    name,
    node: "desk",
    model: openaiOn(url),
    system: SYSTEM,
    toolsModule: "./tools.mjs",
  });

/** Two parallel tool calls, one more call, then the answer: three model calls. */
const turns = () => [
  {
    tool_calls: [
      { name: "lookup", args: { order: "O-1" } },
      { name: "lookup", args: { order: "O-2" } },
    ],
    usage: { input_tokens: 120, output_tokens: 30 },
  },
  {
    tool_calls: [{ name: "lookup", args: { order: "O-3" } }],
    usage: { input_tokens: 170, output_tokens: 12 },
  },
  { text: ANSWER, usage: { input_tokens: 210, output_tokens: 9 } },
];

const stubs: OpenAIStub[] = [];
let server: ChildProcess | undefined;
let client: Client;
beforeAll(async () => {
  const dir = scratchDir("chat-client");
  const [chat, nested, refused] = await Promise.all([
    startOpenAIStub(turns()),
    startOpenAIStub(turns()),
    startOpenAIStub([
      { status: 401, text: "Incorrect API key provided" },
      { status: 401, text: "Incorrect API key provided" },
    ]),
  ]);
  stubs.push(chat!, nested!, refused!);
  writeFileSync(join(dir, "package.json"), "{}\n");
  writeFileSync(
    join(dir, "tools.mjs"),
    "export const lookup = async ({ order }) => `order ${order}: shipped`;\n",
  );
  writeFileSync(join(dir, "chat.yaml"), agentGraph("chat", chat!.url));
  writeFileSync(join(dir, "nested.yaml"), agentGraph("nested", nested!.url));
  writeFileSync(join(dir, "refused.yaml"), agentGraph("refused", refused!.url));
  const proc = spawn(process.execPath, [BIN, "serve", dir, "--no-auth", "--port", "0"], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  server = proc;
  let err = "";
  proc.stderr!.on("data", (d) => {
    err += d;
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    proc.stdout!.on("data", (d) => {
      out += d;
      const found = /https?:\/\/\S+/.exec(out);
      if (found) resolve(found[0]);
    });
    proc.once("exit", (code) => reject(new Error(`graphspec serve exited ${code}: ${err}`)));
  });
  client = new Client({ apiUrl: url, callerOptions: { maxRetries: 0 } });
});
afterAll(async () => {
  server?.kill("SIGTERM");
  await Promise.all(stubs.map((s) => s.close()));
});

type Ev = { event: string; data: unknown };
interface Chunk {
  type: string;
  id?: string;
  content: unknown;
  usage_metadata?: { input_tokens: number; output_tokens: number };
}
type Tuple = [Chunk, Record<string, unknown>];

async function run(graph: string, streamSubgraphs?: boolean): Promise<Ev[]> {
  const { thread_id } = await client.threads.create();
  return (await collect(
    client.runs.stream(thread_id, graph, {
      input: { messages: [{ role: "user", content: "Where are my orders?" }] },
      streamMode: "messages-tuple",
      ...(streamSubgraphs ? { streamSubgraphs } : {}),
    }),
  )) as Ev[];
}

const tuples = (events: Ev[], name = "messages") =>
  events.filter((e) => e.event === name).map((e) => e.data as Tuple);

describe("a chat client on messages-tuple, without streamSubgraphs", () => {
  let events: Ev[];
  beforeAll(async () => {
    events = await run("chat");
  });

  it("gets the agent's answer token by token, after the tool results it came from", () => {
    const chunks = tuples(events);
    const answer = chunks.filter(([m]) => m.type === "ai" && m.content !== "");
    // The stub sends the answer in pieces of four characters; each arrives as its own event.
    expect(answer.length).toBe(Math.ceil(ANSWER.length / 4));
    expect(answer.map(([m]) => m.content).join("")).toBe(ANSWER);
    // Each model call's pieces, then the results of the tools it called, in the order they ran.
    const kinds = chunks.map(([m]) => (m.type === "tool" ? "tool" : "ai"));
    expect(kinds.filter((k, i) => k !== kinds[i - 1])).toEqual(["ai", "tool", "ai", "tool", "ai"]);
    expect(kinds.filter((k) => k === "tool")).toHaveLength(3);
    expect(chunks.indexOf(answer[0]!)).toBeGreaterThan(kinds.lastIndexOf("tool"));
    // Every piece is the node's, as an `llm` node's are.
    expect(new Set(chunks.map(([, meta]) => meta.langgraph_node))).toEqual(new Set(["desk"]));
  });

  it("never gets the system prompt nor the input back", () => {
    const types = new Set(tuples(events).map(([m]) => m.type));
    expect([...types].sort()).toEqual(["ai", "tool"]);
    expect(JSON.stringify(events)).not.toContain("INTERNAL-ONLY");
    expect(JSON.stringify(tuples(events))).not.toContain("Where are my orders?");
  });

  it("counts each model call's usage once when it sums the stream", () => {
    const usage = tuples(events).flatMap(([m]) => (m.usage_metadata ? [m.usage_metadata] : []));
    const sum = (k: "input_tokens" | "output_tokens") => usage.reduce((n, u) => n + u[k], 0);
    expect([sum("input_tokens"), sum("output_tokens")]).toEqual([120 + 170 + 210, 30 + 12 + 9]);
  });
});

describe("with streamSubgraphs", () => {
  it("gets the agent's messages under its node's namespace, as LangGraph gives them", async () => {
    const events = await run("nested", true);
    const names = [...new Set(events.map((e) => e.event).filter((n) => n.startsWith("messages")))];
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^messages\|desk:[0-9a-f-]{36}$/);
    const chunks = tuples(events, names[0]);
    expect(new Set(chunks.map(([, meta]) => meta.langgraph_node))).toEqual(
      new Set(["model_request", "tools"]),
    );
    const answer = chunks.filter(([m]) => m.type !== "tool" && m.content !== "");
    expect(answer.map(([m]) => m.content).join("")).toBe(ANSWER);
    expect(JSON.stringify(events)).not.toContain("INTERNAL-ONLY");
  });
});

describe("when the provider refuses", () => {
  it("gets an error event with the code and a hint", async () => {
    const events = await run("refused");
    const error = events.find((e) => e.event === "error")?.data as Record<string, unknown>;
    expect(error).toMatchObject({ error: "unauthorized", node: "desk" });
    expect(error.hint).toEqual(expect.stringMatching(/\S/));
  });

  it("runs.wait's __error__ carries them too", async () => {
    const { thread_id } = await client.threads.create();
    const waited = (await client.runs.wait(thread_id, "refused", {
      input: { messages: [{ role: "user", content: "Where are my orders?" }] },
      raiseError: false,
    })) as { __error__?: Record<string, unknown> };
    expect(waited.__error__).toMatchObject({ error: "unauthorized", node: "desk" });
    expect(waited.__error__?.hint).toEqual(expect.stringMatching(/\S/));
  });
});
