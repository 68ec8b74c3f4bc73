import { tool } from "@langchain/core/tools";
import { z } from "zod";

/** Sends a reply to the person who asked. Here it only says what it would send. */
export const sendReply = tool(async ({ text }) => `sent: ${text}`, {
  name: "send_reply",
  description: "Send a reply to the person who made the request.",
  schema: z.object({ text: z.string().describe("The reply") }),
});
