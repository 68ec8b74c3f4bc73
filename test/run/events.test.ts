/** A run as events: in order, every node's start and end, tokens, tools, interrupts, usage, one final event. */
import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../src/run/events.js";
import { createExecutor } from "../../src/run/executor.js";

const context = { user_id: "u-42" };
const collect = async (events: AsyncIterable<RunEvent>) => {
  const out: RunEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
};
const brief = (e: RunEvent) =>
  e.type === "node_start" || e.type === "node_end"
    ? `${e.type} ${e.node}`
    : e.type === "tool_call" || e.type === "tool_result"
      ? `${e.type} ${e.tool}`
      : e.type;

describe("exec.stream", () => {
  it("reports the agent's run in order, with tokens, tool calls and usage, then one final event", async () => {
    const scripts = {
      "support-triage": [
        { structured: { priority: "low", reason: "billing" } },
        { tool_calls: [{ name: "lookup_ticket", args: { ticket_id: "T-1002" } }] },
        "It is open and being checked.",
      ],
    };
    const exec = createExecutor({ checkpointer: "memory", scripts });
    const events = await collect(
      exec.stream("support-triage", { input: { ticket: "T-1002" }, context }),
    );
    const sequence = events.map(brief).filter((t) => t !== "token" && t !== "usage");
    expect(sequence).toEqual([
      "run_start",
      "node_start classify",
      "node_end classify",
      "node_start investigate",
      "tool_call lookup_ticket",
      "tool_result lookup_ticket",
      "node_end investigate",
      "completed",
    ]);
    const tokens = events
      .filter((e) => e.type === "token")
      .map((e) => (e as { text: string }).text);
    expect(tokens.join("")).toContain("It is open and being checked.");
    const usages = events.filter((e) => e.type === "usage");
    expect(usages).toHaveLength(3);
    const final = events.at(-1) as { result: { usage: unknown } };
    expect(final.result.usage).toEqual((usages.at(-1) as { usage: unknown }).usage);
    expect(
      events.filter((e) => ["completed", "interrupted", "failed"].includes(e.type)),
    ).toHaveLength(1);
  });

  it("an interrupt comes before the final `interrupted` event", async () => {
    const scripts = {
      "support-triage": [{ structured: { priority: "urgent", reason: "locked out" } }],
    };
    const exec = createExecutor({ checkpointer: "memory", scripts });
    const events = await collect(
      exec.stream("support-triage", { input: { ticket: "T-1" }, context, threadId: "s1" }),
    );
    expect(events.slice(-2).map(brief)).toEqual(["interrupt", "interrupted"]);
    expect(events.at(-2)).toMatchObject({ node: "approval", value: { question: "Escalate T-1?" } });
    const resumed = await collect(
      exec.stream("support-triage", { threadId: "s1", resume: true, context }),
    );
    expect(resumed.map(brief)).toEqual([
      "run_start",
      "node_start approval",
      "node_end approval",
      "node_start notify",
      "tool_call notify_customer",
      "tool_result notify_customer",
      "node_end notify",
      "completed",
    ]);
  });

  it("a spec that cannot be compiled is thrown, not left hanging", async () => {
    const exec = createExecutor({ checkpointer: "memory" });
    await expect(collect(exec.stream("no-such-graph"))).rejects.toThrow(/no-such-graph/);
  });
});
