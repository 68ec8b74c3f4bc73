/**
 * The threads view's pure parts: what a checkpoint changed from its parent, the keys a fork
 * writes (only the changed ones: each goes through its reducer), messages read as a transcript,
 * who made a checkpoint, and the server's message out of an SDK error.
 */
import type { ThreadState } from "@langchain/langgraph-sdk";
import { describe, expect, it } from "vitest";
import { failureText, statusOf } from "../../src/web/threads/api-failure.js";
import { madeBy } from "../../src/web/threads/made-by.js";
import { transcriptOf } from "../../src/web/threads/transcript.js";
import { changedKeys, valuesDiff } from "../../src/web/threads/values-diff.js";

describe("values against the parent's", () => {
  it("lists added, changed and removed keys; equal values are no change", () => {
    expect(
      valuesDiff({ n: 1, path: ["one"], gone: true }, { n: 2, path: ["one"], log: [] }),
    ).toEqual([
      { key: "n", kind: "changed", before: 1, after: 2 },
      { key: "log", kind: "added", after: [] },
      { key: "gone", kind: "removed", before: true },
    ]);
    expect(valuesDiff(undefined, { n: 0 })).toEqual([{ key: "n", kind: "added", after: 0 }]);
  });

  it("a fork writes only the keys edited (an append list sent unchanged would grow)", () => {
    expect(changedKeys({ n: 1, path: ["one"] }, { n: 41, path: ["one"], extra: "x" })).toEqual({
      n: 41,
      extra: "x",
    });
    expect(changedKeys({ n: 1 }, { n: 1 })).toEqual({});
  });
});

describe("messages as a transcript", () => {
  it("reads plain messages, LangChain's serialized ones, content blocks and tool calls", () => {
    expect(
      transcriptOf([
        { type: "human", content: "Where is T-1?" },
        {
          type: "ai",
          content: [{ type: "text", text: "Looking" }],
          tool_calls: [{ name: "lookup_ticket", args: { id: "T-1" } }],
        },
        { type: "tool", name: "lookup_ticket", content: "open" },
        {
          lc: 1,
          type: "constructor",
          id: ["langchain_core", "messages", "AIMessage"],
          kwargs: { content: "It is open." },
        },
        { role: "user", content: "thanks" },
      ]),
    ).toEqual([
      { role: "human", text: "Where is T-1?", toolCalls: [] },
      { role: "ai", text: "Looking", toolCalls: [{ name: "lookup_ticket", args: { id: "T-1" } }] },
      { role: "tool", text: "open", toolCalls: [], tool: "lookup_ticket" },
      { role: "ai", text: "It is open.", toolCalls: [] },
      { role: "user", text: "thanks", toolCalls: [] },
    ]);
  });

  it("marks a tool message whose status is error as failed, and only a tool message", () => {
    expect(
      transcriptOf([
        { type: "tool", name: "notify_customer", content: "not allowed", status: "error" },
        { type: "tool", name: "lookup_ticket", content: "open", status: "success" },
        { type: "ai", content: "x", status: "error" },
      ]),
    ).toEqual([
      { role: "tool", text: "not allowed", toolCalls: [], tool: "notify_customer", failed: true },
      { role: "tool", text: "open", toolCalls: [], tool: "lookup_ticket" },
      { role: "ai", text: "x", toolCalls: [] },
    ]);
  });

  it("anything else is not a transcript", () => {
    expect(transcriptOf([])).toBeUndefined();
    expect(transcriptOf(["one", "two"])).toBeUndefined();
    expect(transcriptOf([{ type: "human" }])).toBeUndefined();
    expect(transcriptOf({ type: "human", content: "x" })).toBeUndefined();
  });
});

describe("who made a checkpoint", () => {
  const at = (source: string, tasks: string[] = []) =>
    ({ metadata: { source }, tasks: tasks.map((name) => ({ name })) }) as unknown as ThreadState;
  it("a step: its parent's tasks; else how it was written", () => {
    expect(madeBy(at("loop"), at("loop", ["two", "three"]))).toBe("two, three");
    expect(madeBy(at("loop"), at("input", ["__start__"]))).toBe("the input");
    expect(madeBy(at("loop"), undefined)).toBe("a step");
    expect(madeBy(at("update"), undefined)).toBe("a state update");
    expect(madeBy(at("fork"), undefined)).toBe("a fork");
    expect(madeBy(at("input"), undefined)).toBe("the run's input");
  });
});

describe("SDK errors", () => {
  it("shows the server's message and hint, and the status", () => {
    const e = Object.assign(
      new Error(
        'HTTP 409: {"error":"thread-busy","message":"thread `t` has a run in progress","hint":"cancel it first"}',
      ),
      { status: 409 },
    );
    expect(failureText(e)).toBe("thread `t` has a run in progress (cancel it first)");
    expect(statusOf(e)).toBe(409);
    expect(failureText(new Error("fetch failed"))).toBe("fetch failed");
    expect(statusOf(new Error("x"))).toBeUndefined();
  });
});
