/**
 * A tool's `Command` result read for the Tool calls panel (src/web/runs/tool-command.ts): the JSON
 * LangGraph's own `Command.toJSON()` makes, so the shapes are the library's, not made up here.
 */
import { ToolMessage } from "@langchain/core/messages";
import { Command, Send } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { toolCommandOf } from "../../src/web/runs/tool-command.js";

/** The Command as the events stream carries it: through JSON. */
const wire = (c: Command) => JSON.parse(JSON.stringify(c));

describe("toolCommandOf", () => {
  it("reads the answer, the state it writes and where it goes", () => {
    const c = new Command({
      update: {
        draft: "Pro is $24",
        messages: [new ToolMessage({ content: "saved 10 characters", tool_call_id: "call_1" })],
      },
      goto: "review",
    });
    expect(toolCommandOf(wire(c))).toEqual({
      answer: "saved 10 characters",
      updates: [
        { key: "draft", value: "Pro is $24" },
        { key: "messages", value: "tool: saved 10 characters" },
      ],
      goto: ["review"],
    });
  });

  it("names a Send's node and its input", () => {
    const c = new Command({
      goto: [new Send("each", { item: 1 }), "done"],
      update: { n: 1 },
    });
    const read = toolCommandOf(wire(c));
    expect(read?.goto).toEqual(['each (with {"item":1})', "done"]);
  });

  it("is not fooled by a result that is not a Command", () => {
    expect(toolCommandOf("plain text")).toBeUndefined();
    expect(toolCommandOf({ update: { a: 1 } })).toBeUndefined();
    expect(toolCommandOf(null)).toBeUndefined();
  });
});
