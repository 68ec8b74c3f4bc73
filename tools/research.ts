import { ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { Command } from "@langchain/langgraph";
import { z } from "zod";

/** A small in-memory library (the example has no search service). */
const NOTES: Record<string, string[]> = {
  pricing: ["the Pro plan went from $20 to $24 in May", "annual plans keep the old price"],
  outage: ["the March outage lasted 42 minutes", "the status page was updated every 10 minutes"],
};

/**
 * Searches the notes of the caller's session. `session_id` is bound from the run's context: the
 * model never chooses it. The findings go straight into the state through a Command, with the
 * tool message that answers the model's call.
 */
export const searchNotes = tool(
  async ({ session_id, topic }, runtime) => {
    const found = NOTES[topic.toLowerCase()] ?? [];
    const findings = found.map((f) => `${topic} (${session_id}): ${f}`);
    return new Command({
      update: {
        findings,
        messages: [
          new ToolMessage({
            content: findings.length ? findings.join("\n") : `nothing on ${topic}`,
            tool_call_id: runtime.toolCall?.id ?? "",
          }),
        ],
      },
    });
  },
  {
    name: "search_notes",
    description: "Search the research notes on a topic.",
    schema: z.object({
      session_id: z.string().describe("The caller's session"),
      topic: z.string().describe("The topic, e.g. pricing"),
    }),
  },
);
