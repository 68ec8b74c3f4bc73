import { tool } from "@langchain/core/tools";
import { z } from "zod";

/** Looks a ticket up in a small in-memory table (the example has no ticket system). */
export const lookupTicket = tool(
  async ({ ticket_id }) => {
    const found = TICKETS[ticket_id];
    return found ? JSON.stringify(found) : `no ticket ${ticket_id}`;
  },
  {
    name: "lookup_ticket",
    description: "Look up a support ticket by its id.",
    schema: z.object({ ticket_id: z.string().describe("The ticket id, e.g. T-1001") }),
  },
);

const TICKETS: Record<string, { customer: string; subject: string; status: string }> = {
  "T-1001": { customer: "ada", subject: "Cannot log in", status: "open" },
  "T-1002": { customer: "lin", subject: "Invoice is wrong", status: "open" },
};
