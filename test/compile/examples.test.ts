/**
 * The example graphs in graphs/ compile and run offline on scripted models, end to end — the
 * same runs the README shows.
 */
import { Command, MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { compile } from "../../src/compile/index.js";
import { loadSpec } from "../../src/spec/load.js";

const urgent = {
  "support-triage": [{ structured: { priority: "urgent", reason: "customer is locked out" } }],
};
const routine = {
  "support-triage": [
    { structured: { priority: "low", reason: "a question about invoices" } },
    { tool_calls: [{ name: "lookup_ticket", args: { ticket_id: "T-1002" } }] },
    "Ticket T-1002 is open: the invoice is being checked.",
  ],
};

describe("graphs/support-triage.yaml", () => {
  const run = { configurable: { thread_id: "" }, context: { user_id: "u-42" } };

  it("an urgent ticket pauses for a person, and notifies the customer once approved", async () => {
    const graph = await compile(await loadSpec("graphs/support-triage.yaml"), {
      checkpointer: new MemorySaver(),
      scripts: urgent,
    });
    const config = { ...run, configurable: { thread_id: "urgent" } };
    const paused = await graph.invoke({ ticket: "T-1001: I cannot log in" }, config);
    expect(paused.__interrupt__?.[0]?.value).toEqual({
      question: "Escalate T-1001: I cannot log in?",
    });
    const done = await graph.invoke(new Command({ resume: true }), config);
    expect(done.priority).toBe("urgent");
    expect(done.notes).toEqual(["customer is locked out", "sent to u-42: Your ticket is urgent."]);
  });

  it("a routine ticket goes to the agent, which looks the ticket up", async () => {
    const graph = await compile(await loadSpec("graphs/support-triage.yaml"), {
      checkpointer: new MemorySaver(),
      scripts: routine,
    });
    const config = { ...run, configurable: { thread_id: "routine" } };
    const done = await graph.invoke({ ticket: "T-1002: my invoice is wrong" }, config);
    expect(done.priority).toBe("low");
    const texts = done.messages.map(
      (m: { getType(): string; text: string }) => `${m.getType()}: ${m.text}`,
    );
    expect(texts.at(-1)).toBe("ai: Ticket T-1002 is open: the invoice is being checked.");
    expect(texts.some((t: string) => t.startsWith('tool: {"customer":"lin"'))).toBe(true);
  });
});
