import { tool } from "@langchain/core/tools";
import { z } from "zod";

/** Sends a message to a customer. `user_id` is bound from the run's context, never chosen by a model. */
export const notifyCustomer = tool(
  async ({ user_id, message }) => `sent to ${user_id}: ${message}`,
  {
    name: "notify_customer",
    description: "Send a message to the customer who opened the ticket.",
    schema: z.object({
      user_id: z.string().describe("The customer's id"),
      message: z.string().describe("The message text"),
    }),
  },
);
