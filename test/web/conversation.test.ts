/**
 * The Messages panel's conversation once a run has ended (src/web/runs/conversation.ts): the
 * thread's messages channel with who said what, merged with what the run streamed.
 */
import { describe, expect, it } from "vitest";
import { conversationOf } from "../../src/web/runs/conversation.js";
import type { StreamedMessage } from "../../src/web/runs/run-progress.js";

const state = {
  messages: [
    { type: "human", id: "h1", content: "What about T-1001?" },
    {
      type: "ai",
      id: "a1",
      content: "",
      tool_calls: [{ id: "c1", name: "lookup_ticket", args: { ticket_id: "T-1001" } }],
    },
    { type: "tool", id: "t1", name: "lookup_ticket", tool_call_id: "c1", content: "open" },
    { type: "tool", id: "t2", name: "notify", tool_call_id: "c2", content: "no", status: "error" },
    { type: "ai", id: "a2", content: "It is open." },
  ],
};

describe("conversationOf", () => {
  it("is what was streamed when the state keeps no messages", () => {
    const streamed: StreamedMessage[] = [
      { id: "x", node: "summarise", text: "Ada is locked out." },
    ];
    expect(conversationOf({ summary: "Ada is locked out." }, streamed)).toBe(streamed);
    expect(conversationOf({ messages: [] }, streamed)).toBe(streamed);
  });

  it("names who said what: the person, the model with its tool calls, the tools (a failed one marked)", () => {
    const streamed: StreamedMessage[] = [{ id: "a2", node: "helpdesk", text: "It is open." }];
    expect(conversationOf(state, streamed)).toEqual([
      { id: "h1", role: "human", node: "you", text: "What about T-1001?" },
      {
        id: "a1",
        role: "ai",
        node: "",
        text: "",
        toolCalls: [{ name: "lookup_ticket", args: { ticket_id: "T-1001" } }],
      },
      { id: "t1", role: "tool", node: "lookup_ticket", text: "open" },
      { id: "t2", role: "tool", node: "notify", text: "no", failed: true },
      { id: "a2", role: "ai", node: "helpdesk", text: "It is open." },
    ]);
  });

  it("keeps streamed text the channel does not hold where it came, and the same answer once", () => {
    const streamed: StreamedMessage[] = [
      { id: "said-1", node: "you", text: "What about T-1001?" },
      { id: "chunk-a2", node: "helpdesk", text: "It is open." },
      { id: "s1", node: "summarise", text: "One open ticket." },
    ];
    const lines = conversationOf(state, streamed);
    expect(lines.map((l) => l.id)).toEqual(["h1", "a1", "t1", "t2", "a2", "s1"]);
  });
});
