/** `llm` nodes on the scripted provider: prompts, structured output, tools, write forms, usage. */
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import { END, MemorySaver, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { compile } from "../../src/compile/index.js";
import { ScriptedChatModel, type ScriptedTurn } from "../../src/compile/models/index.js";
import { UsageCollector } from "../../src/run/usage.js";
import { expectSameRun } from "../support/equivalence.js";
import { rejection, specDoc } from "./helpers.js";

const CLASSIFY = `version: 1
name: t
state:
  messages: { type: messages }
  ticket: { type: string }
  priority: { type: string, enum: [low, normal, urgent], default: normal }
  notes: { type: array, items: { type: string }, reducer: append, default: [] }
models:
  default: { model: "scripted:triage" }
nodes:
  classify:
    kind: llm
    system: You triage support tickets.
    prompt: "Ticket: \${{ state.ticket }}"
    output:
      schema:
        type: object
        properties:
          priority: { type: string, enum: [low, normal, urgent] }
          reason: { type: string }
        required: [priority, reason]
    write: { priority: "\${{ output.priority }}", notes: "\${{ output.reason }}" }
edges:
  - { from: START, to: classify }
  - { from: classify, to: END }
`;

/** A one-node graph with `node` (YAML flow map body) and the given extra state channels. */
const oneNode = (node: string, state = "  messages: { type: messages }\n") => `version: 1
name: t
state:
${state}models:
  default: { model: "scripted:chat" }
nodes:
  chat: { kind: llm, ${node} }
edges:
  - { from: START, to: chat }
  - { from: chat, to: END }
`;

/** A scripted model the test keeps, to see what it was sent. */
const scripted = (...turns: (ScriptedTurn | string)[]) => ScriptedChatModel.create("chat", turns);
const sent = (model: ScriptedChatModel, call = 0) =>
  model.calls[call]!.messages.map((m: BaseMessage) => [m.getType(), m.text]);

describe("llm prompt", () => {
  it("sends system, the state's messages, then the prompt", async () => {
    const model = scripted("ok");
    const g = await compile(specDoc(oneNode('system: "Be brief.", prompt: "Now: ${{ 1 + 1 }}"')), {
      models: { default: model as never },
    });
    const earlier = [new HumanMessage("hello"), new AIMessage("hi, how can I help?")];
    await g.invoke({ messages: earlier });
    expect(sent(model)).toEqual([
      ["system", "Be brief."],
      ["human", "hello"],
      ["ai", "hi, how can I help?"],
      ["human", "Now: 2"],
    ]);
  });

  it("a `messages` template picks the history; the state's own messages are sent, not copies", async () => {
    const model = scripted("ok");
    const spec = oneNode(
      `messages: "\${{ state.messages.filter(m, m.type != 'tool') }}", prompt: Go on.`,
    );
    const g = await compile(specDoc(spec), { models: { default: model as never } });
    const asked = new AIMessage({
      content: "",
      tool_calls: [{ name: "x", args: {}, id: "c1", type: "tool_call" }],
      usage_metadata: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
    });
    const out = await g.invoke({
      messages: [
        new HumanMessage("q"),
        asked,
        new ToolMessage({ content: "r", tool_call_id: "c1" }),
      ],
    });
    expect(sent(model)).toEqual([
      ["human", "q"],
      ["ai", ""],
      ["human", "Go on."],
    ]);
    // The AI message sent is the one in the state: its tool calls and usage are intact.
    expect(model.calls[0]!.messages[1]).toBe(out.messages[1]);
  });

  it("a `messages` template may give `{ role, content }` maps and strings", async () => {
    const model = scripted("ok");
    const spec = oneNode(
      `messages: "\${{ [{'role': 'user', 'content': 'about ' + state.topic}, {'role': 'assistant', 'content': 'sure'}, 'and more'] }}"`,
      "  messages: { type: messages }\n  topic: { type: string }\n",
    );
    const g = await compile(specDoc(spec), { models: { default: model as never } });
    await g.invoke({ topic: "graphs" });
    expect(sent(model)).toEqual([
      ["human", "about graphs"],
      ["ai", "sure"],
      ["human", "and more"],
    ]);
  });

  it("a `messages` template that gives something else is an expression error naming the node", async () => {
    const spec = oneNode(
      `messages: "\${{ state.items }}"`,
      "  messages: { type: messages }\n  items: { type: array, items: { type: integer } }\n",
    );
    const g = await compile(specDoc(spec), { scripts: { chat: ["ok"] } });
    const e = await rejection(g.invoke({ items: [1, 2] }));
    expect(e).toMatchObject({ name: "GraphspecRunError", code: "expression", node: "chat" });
    expect(e.message).toBe(
      "node `chat`: `messages` (test/fixtures/compile/core/t.yaml:9:32) gave 1 at position 0, which is not a message",
    );
  });
});

describe("llm with structured output", () => {
  it("writes the checked answer", async () => {
    const scripts = { triage: [{ structured: { priority: "urgent", reason: "locked out" } }] };
    const g = await compile(specDoc(CLASSIFY), { scripts });
    const out = await g.invoke({ ticket: "T-1", messages: [new HumanMessage("earlier")] });
    expect(out.priority).toBe("urgent");
    expect(out.notes).toEqual(["locked out"]);
    // The answer went where `write` says, not to `messages`.
    expect(out.messages.map((m: BaseMessage) => m.text)).toEqual(["earlier"]);
  });

  it("sends a wrong answer back once with what was wrong, and takes the second", async () => {
    const model = ScriptedChatModel.create("triage", [
      { structured: { priority: "asap", reason: "x" } },
      { structured: { priority: "low", reason: "fine" } },
    ]);
    const g = await compile(specDoc(CLASSIFY), { models: { default: model as never } });
    const out = await g.invoke({ ticket: "T-2" });
    expect(out).toMatchObject({ priority: "low", notes: ["fine"] });
    expect(sent(model, 0)).toEqual([
      ["system", "You triage support tickets."],
      ["human", "Ticket: T-2"],
    ]);
    expect(sent(model, 1)).toEqual([
      ["system", "You triage support tickets."],
      ["human", "Ticket: T-2"],
      ["ai", '{"priority":"asap","reason":"x"}'],
      [
        "human",
        'Your answer does not match the required schema: `output.priority` must be one of "low", "normal", "urgent". Answer again, matching the schema exactly.',
      ],
    ]);
  });

  it("fails with invalid-output when the answer is wrong twice", async () => {
    const scripts = {
      triage: [{ structured: { priority: "asap" } }, { structured: { reason: "no" } }],
    };
    const g = await compile(specDoc(CLASSIFY), { scripts });
    const e = await rejection(g.invoke({ ticket: "T-3" }));
    expect(e).toMatchObject({
      name: "GraphspecRunError",
      code: "invalid-output",
      node: "classify",
    });
    expect(e.message).toBe(
      'node `classify`: the model\'s answer does not match `output.schema`, twice: `output` is missing `priority` (answer: {"reason":"no"})',
    );
    expect(e.hint).toMatch(/make the schema easier to follow/);
  });

  it("every call's usage reaches the run's callbacks, the refused one too", async () => {
    const scripts = {
      triage: [
        {
          structured: { priority: "asap", reason: "x" },
          usage: { input_tokens: 10, output_tokens: 3 },
        },
        {
          structured: { priority: "low", reason: "y" },
          usage: { input_tokens: 20, output_tokens: 4 },
        },
      ],
    };
    const g = await compile(specDoc(CLASSIFY), { scripts });
    const usage = new UsageCollector();
    await g.invoke({ ticket: "T-5" }, { callbacks: [usage] });
    expect(usage.usage).toEqual({ inputTokens: 30, outputTokens: 7, totalTokens: 37 });
  });

  it("without `write`, the answer is appended to messages as JSON text, with its usage", async () => {
    const spec = CLASSIFY.replace(/ {4}write: .*\n/, "");
    const scripts = {
      triage: [
        {
          structured: { priority: "low", reason: "ok" },
          usage: { input_tokens: 5, output_tokens: 6 },
        },
      ],
    };
    const out = await (await compile(specDoc(spec), { scripts })).invoke({ ticket: "T-6" });
    const answer = out.messages.at(-1) as AIMessage;
    expect(answer.text).toBe('{"priority":"low","reason":"ok"}');
    expect(answer.usage_metadata).toEqual({ input_tokens: 5, output_tokens: 6, total_tokens: 11 });
  });

  it("`write: CHANNEL` puts the structured object in a plain channel", async () => {
    const spec = CLASSIFY.replace(/ {4}write: .*\n/, "    write: verdict\n").replace(
      "  ticket: { type: string }\n",
      "  ticket: { type: string }\n  verdict: { type: object }\n",
    );
    const scripts = { triage: [{ structured: { priority: "low", reason: "ok" } }] };
    const out = await (await compile(specDoc(spec), { scripts })).invoke({ ticket: "T-7" });
    expect(out.verdict).toEqual({ priority: "low", reason: "ok" });
  });

  it("runs like withStructuredOutput called from a hand-written node", async () => {
    const turns = [{ structured: { priority: "urgent", reason: "down" } }];
    const compiled = await compile(specDoc(CLASSIFY), {
      scripts: { triage: turns },
      checkpointer: new MemorySaver(),
    });
    const model = ScriptedChatModel.create("triage", turns);
    const { Annotation } = await import("@langchain/langgraph");
    const State = Annotation.Root({
      ...MessagesAnnotation.spec,
      ticket: Annotation<string>(),
      priority: Annotation<string>({ reducer: (_a, b) => b, default: () => "normal" }),
      notes: Annotation<string[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }),
    });
    const hand = new StateGraph(State)
      .addNode("classify", async (s) => {
        const answer = await model
          .withStructuredOutput({})
          .invoke([
            new SystemMessage("You triage support tickets."),
            new HumanMessage(`Ticket: ${s.ticket}`),
          ]);
        return { priority: answer.priority, notes: [answer.reason] };
      })
      .addEdge(START, "classify")
      .addEdge("classify", END)
      .compile({ checkpointer: new MemorySaver() });
    const run = await expectSameRun(compiled, hand, { input: { ticket: "T-8" } });
    expect(run.state).toMatchObject({ priority: "urgent", notes: ["down"] });
  });

  it("a script that runs out says so", async () => {
    const g = await compile(specDoc(CLASSIFY), { scripts: { triage: [] } });
    const e = await rejection(g.invoke({ ticket: "T-4" }));
    expect(e.message).toBe(
      "scripted model `triage` has no answer left: its script has 0 turns and this is call 1",
    );
  });

  it("a scripted model without a script is a compile error naming the model", async () => {
    const e = await rejection(compile(specDoc(CLASSIFY)));
    expect(e.name).toBe("CompileError");
    expect(e.message).toMatch(
      /^test\/fixtures\/compile\/core\/t\.yaml:9:\d+: model `default` \(`scripted:triage`\) has no script/,
    );
  });

  it("`tools` and `output` together are a compile error", async () => {
    const spec = CLASSIFY.replace(
      "    system: You triage",
      "    tools: [lookup_ticket]\n    system: You triage",
    ).replace(
      "nodes:\n",
      "tools:\n  lookup_ticket: { module: ../../../../tools/tickets.ts, export: lookupTicket }\nnodes:\n",
    );
    // validate (output-schema) says it first; without validate, compile refuses it itself.
    const e = await rejection(compile(specDoc(spec), { scripts: { triage: [] }, validate: false }));
    expect(e.name).toBe("CompileError");
    expect(e.message).toMatch(
      /^test\/fixtures\/compile\/core\/t\.yaml:\d+:\d+: llm node `classify` has both `tools` and `output`; a structured answer cannot also call tools/,
    );
  });
});

describe("llm answers", () => {
  const CHAT = oneNode('system: Be brief., prompt: "Say hi"');

  it("appends the answer (with its usage) to messages, like a hand-written node", async () => {
    const scripts = { chat: [{ text: "hi!", usage: { input_tokens: 7, output_tokens: 2 } }] };
    const compiled = await compile(specDoc(CHAT), { scripts, checkpointer: new MemorySaver() });
    const handModel = ScriptedChatModel.create("chat", scripts.chat);
    const hand = new StateGraph(MessagesAnnotation)
      .addNode("chat", async (s) => {
        // The prompt is sent once and kept in the history, before the answer.
        const prompt = new HumanMessage("Say hi");
        const answer = await handModel.invoke([
          new SystemMessage("Be brief."),
          ...s.messages,
          prompt,
        ]);
        return { messages: [prompt, answer] };
      })
      .addEdge(START, "chat")
      .addEdge("chat", END)
      .compile({ checkpointer: new MemorySaver() });
    const run = await expectSameRun(compiled, hand, { input: { messages: [] } });
    expect(run.steps).toEqual([["chat"]]);
    const out = await compile(specDoc(CHAT), { scripts }).then((g) => g.invoke({}));
    const answer = out.messages.at(-1) as AIMessage;
    expect(answer.text).toBe("hi!");
    expect(answer.usage_metadata).toEqual({ input_tokens: 7, output_tokens: 2, total_tokens: 9 });
  });

  it("without a messages channel: `write: CHANNEL` takes the answer's text", async () => {
    const spec = oneNode('prompt: "Say hi", write: reply', "  reply: { type: string }\n");
    const g = await compile(specDoc(spec), { scripts: { chat: ["hello"] } });
    expect(await g.invoke({})).toEqual({ reply: "hello" });
  });

  it("without a messages channel: a `write` map sees the answer as a Message record", async () => {
    const spec = oneNode(
      `prompt: "Say hi", write: { reply: "\${{ output.type + ': ' + output.text }}", asked: "\${{ output.tool_calls.map(c, c.name) }}" }`,
      "  reply: { type: string }\n  asked: { type: array, items: { type: string } }\n",
    );
    const turn = {
      text: "looking",
      tool_calls: [{ name: "lookup_ticket", args: { ticket_id: "T-1" } }],
    };
    const g = await compile(specDoc(spec), { scripts: { chat: [turn] } });
    expect(await g.invoke({})).toEqual({ reply: "ai: looking", asked: ["lookup_ticket"] });
  });

  it("`write: CHANNEL` into a message channel writes the AI message itself", async () => {
    const spec = oneNode('prompt: "Say hi", write: log', "  log: { type: messages }\n");
    const scripts = { chat: [{ text: "hello", usage: { input_tokens: 1, output_tokens: 1 } }] };
    const out = await (await compile(specDoc(spec), { scripts })).invoke({});
    // The prompt that asked, then the answer.
    expect(out.log).toHaveLength(2);
    expect(out.log[0]).toBeInstanceOf(HumanMessage);
    expect(out.log[0].text).toBe("Say hi");
    expect(out.log[1]).toBeInstanceOf(AIMessage);
    expect(out.log[1].usage_metadata).toMatchObject({ total_tokens: 2 });
  });

  it("`${{ output }}` written to a message channel is the answer again, tool calls and usage kept", async () => {
    const spec = oneNode(
      `prompt: "Say hi", write: { log: "\${{ [output] }}", reply: "\${{ output.text }}" }`,
      "  log: { type: messages }\n  reply: { type: string }\n",
    );
    const turn = {
      text: "one moment",
      tool_calls: [{ name: "lookup_ticket", args: { ticket_id: "T-1" }, id: "c9" }],
      usage: { input_tokens: 3, output_tokens: 4 },
    };
    const out = await (await compile(specDoc(spec), { scripts: { chat: [turn] } })).invoke({});
    const [answer] = out.log as AIMessage[];
    expect(answer).toBeInstanceOf(AIMessage);
    expect(answer!.tool_calls).toEqual([
      { name: "lookup_ticket", args: { ticket_id: "T-1" }, id: "c9", type: "tool_call" },
    ]);
    expect(answer!.usage_metadata).toEqual({ input_tokens: 3, output_tokens: 4, total_tokens: 7 });
    expect(out.reply).toBe("one moment");
  });

  it("a failing model call fails the node with the provider's error", async () => {
    const g = await compile(specDoc(CHAT), { scripts: { chat: [{ error: "rate limited" }] } });
    const e = await rejection(g.invoke({}));
    expect(e.message).toBe("rate limited");
  });
});

describe("scripted streaming", () => {
  it("streams the answer in pieces to LangGraph's messages mode, and keeps the whole answer", async () => {
    const scripts = {
      chat: [{ text: "Hello there, friend.", usage: { input_tokens: 3, output_tokens: 4 } }],
    };
    const g = await compile(specDoc(oneNode('prompt: "Say hi"')), {
      scripts,
      checkpointer: new MemorySaver(),
    });
    const pieces: string[] = [];
    const config = { configurable: { thread_id: "s" }, streamMode: "messages" as const };
    // The model's tokens; the prompt the node stores arrives as a human message of its own.
    for await (const [chunk] of await g.stream({}, config))
      if (chunk.getType() === "ai" && chunk.text) pieces.push(chunk.text);
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join("")).toBe("Hello there, friend.");
    const state = await g.getState({ configurable: { thread_id: "s" } });
    const answer = state.values.messages.at(-1) as AIMessage;
    expect(answer.text).toBe("Hello there, friend.");
    expect(answer.usage_metadata).toMatchObject({
      input_tokens: 3,
      output_tokens: 4,
      total_tokens: 7,
    });
  });
});
