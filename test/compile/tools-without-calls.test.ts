/**
 * A `tools` node runs the tool calls of the last AI message; when the history has none to run — it
 * is empty, or its last message is a person's or a tool's — the node runs nothing, as for an AI
 * message without calls, rather than failing with LangGraph's "ToolNode only accepts AIMessages".
 * Found by test/differential.test.ts.
 */
import { HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { compile } from "../../src/compile/index.js";
import { specDoc } from "./helpers.js";

const spec = `version: 1
name: t
state:
  messages: { type: messages }
tools:
  add:
    module: ./tools.ts
    description: Add two numbers.
    schema: { type: object, properties: { a: { type: number }, b: { type: number } }, required: [a, b] }
nodes:
  run: { kind: tools }
edges:
  - { from: START, to: run }
  - { from: run, to: END }
`;

describe("tools node with no calls to run", () => {
  it.each([
    ["an empty history", []],
    ["a person's message last", [new HumanMessage("hello")]],
    ["a tool's message last", [new ToolMessage({ content: "3", tool_call_id: "c0" })]],
  ])("runs nothing after %s", async (_, messages) => {
    const graph = await compile(specDoc(spec));
    const out = await graph.invoke({ messages });
    expect(out.messages).toHaveLength(messages.length);
  });
});
