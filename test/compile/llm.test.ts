/** `llm` nodes on the scripted provider: prompts, structured output, tools, and what goes wrong. */
import { type AIMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { END, MemorySaver, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { compile } from "../../src/compile/index.js";
import { ScriptedChatModel } from "../../src/compile/models/index.js";
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

describe("llm with structured output", () => {
  it("sends system, history and prompt; writes the checked answer", async () => {
    const scripts = { triage: [{ structured: { priority: "urgent", reason: "locked out" } }] };
    const g = await compile(specDoc(CLASSIFY), { scripts });
    const out = await g.invoke({ ticket: "T-1", messages: [new HumanMessage("earlier")] });
    expect(out.priority).toBe("urgent");
    expect(out.notes).toEqual(["locked out"]);
  });

  it("sends a wrong answer back once with what was wrong, and takes the second", async () => {
    const model = ScriptedChatModel.create("triage", [
      { structured: { priority: "asap", reason: "x" } },
      { structured: { priority: "low", reason: "fine" } },
    ]);
    const g = await compile(specDoc(CLASSIFY), { models: { default: model as never } });
    const out = await g.invoke({ ticket: "T-2" });
    expect(out).toMatchObject({ priority: "low", notes: ["fine"] });
    const second = model.calls[1]!.messages.map((m) => m.text);
    expect(second.at(-1)).toMatch(
      /^Your answer does not match the required schema: `output.priority` must be one of "low", "normal", "urgent"/,
    );
    expect(model.calls[0]!.messages.map((m) => [m.getType(), m.text])).toEqual([
      ["system", "You triage support tickets."],
      ["human", "Ticket: T-2"],
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
    expect(e.message).toMatch(
      /^node `classify`: the model's answer does not match `output.schema`, twice: `output` is missing `priority`/,
    );
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
});

describe("llm into messages", () => {
  const CHAT = `version: 1
name: t
state:
  messages: { type: messages }
models:
  default: { model: "scripted:chat" }
nodes:
  chat: { kind: llm, system: Be brief., prompt: "Say hi" }
edges:
  - { from: START, to: chat }
  - { from: chat, to: END }
`;

  it("appends the answer (with its usage) to messages, like a hand-written node", async () => {
    const scripts = { chat: [{ text: "hi!", usage: { input_tokens: 7, output_tokens: 2 } }] };
    const compiled = await compile(specDoc(CHAT), { scripts, checkpointer: new MemorySaver() });
    const handModel = ScriptedChatModel.create("chat", scripts.chat);
    const hand = new StateGraph(MessagesAnnotation)
      .addNode("chat", async (s) => ({
        messages: [
          await handModel.invoke([
            new SystemMessage("Be brief."),
            ...s.messages,
            new HumanMessage("Say hi"),
          ]),
        ],
      }))
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

  it("a write into a string channel takes the answer's text", async () => {
    const spec = CHAT.replace(
      "  messages: { type: messages }\n",
      "  messages: { type: messages }\n  reply: { type: string }\n",
    ).replace('prompt: "Say hi" }', 'prompt: "Say hi", write: reply }');
    const g = await compile(specDoc(spec), { scripts: { chat: ["hello"] } });
    expect((await g.invoke({})).reply).toBe("hello");
  });
});

describe("scripted streaming", () => {
  it("streams the answer in pieces to LangGraph's messages mode, and keeps the whole answer", async () => {
    const spec = `version: 1
name: t
state:
  messages: { type: messages }
models:
  default: { model: "scripted:chat" }
nodes:
  chat: { kind: llm, prompt: "Say hi" }
edges:
  - { from: START, to: chat }
  - { from: chat, to: END }
`;
    const scripts = {
      chat: [{ text: "Hello there, friend.", usage: { input_tokens: 3, output_tokens: 4 } }],
    };
    const g = await compile(specDoc(spec), { scripts, checkpointer: new MemorySaver() });
    const pieces: string[] = [];
    const config = { configurable: { thread_id: "s" }, streamMode: "messages" as const };
    for await (const [chunk] of await g.stream({}, config)) if (chunk.text) pieces.push(chunk.text);
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
