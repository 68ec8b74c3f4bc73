import { ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { Command } from "@langchain/langgraph";
import { z } from "zod";

/**
 * Saves the draft for the caller's session. `session_id` is bound from the run's context; the
 * draft goes into the state through a Command, with the tool message that answers the call.
 */
export const saveDraft = tool(
  async ({ session_id, text }, runtime) =>
    new Command({
      update: {
        draft: text,
        messages: [
          new ToolMessage({
            content: `saved ${text.length} characters for ${session_id}`,
            tool_call_id: runtime.toolCall?.id ?? "",
          }),
        ],
      },
    }),
  {
    name: "save_draft",
    description: "Save the draft of the answer.",
    schema: z.object({
      session_id: z.string().describe("The caller's session"),
      text: z.string().describe("The draft"),
    }),
  },
);
