/** An agent with `write` keeps its transcript in `messages`; a failed tool call stays `status: "error"`. */
import { describe, expect, it } from "vitest";
import { createExecutor } from "../../src/index.js";
import { toPlain } from "../../src/run/serialize.js";

describe("an agent with write", () => {
  it("writes its answer and keeps the loop's messages, a failed call marked as failed", async () => {
    const exec = createExecutor({
      dir: "test/fixtures/tool-runtime",
      checkpointer: "memory",
      scripts: {
        transcript: [
          { tool_calls: [{ name: "lookup_ticket", args: {} }] },
          { tool_calls: [{ name: "lookup_ticket", args: { ticket_id: "T-1001" } }] },
          "T-1001 is open.",
        ],
      },
    });
    const result = await exec.run("transcript", {
      input: { messages: [{ role: "user", content: "T-1001?" }] },
    });
    expect(result.error).toBeUndefined();
    expect(result.output.verdict).toBe("T-1001 is open.");
    const messages = toPlain(result.output.messages) as Record<string, unknown>[];
    expect(messages.map((m) => m.type)).toEqual(["human", "ai", "tool", "ai", "tool", "ai"]);
    expect(messages[2]).toMatchObject({ type: "tool", status: "error" });
    expect(messages[4]).not.toHaveProperty("status");
    expect(messages[5]).toMatchObject({ content: "T-1001 is open." });
  });
});
