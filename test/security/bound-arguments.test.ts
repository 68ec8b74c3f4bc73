/**
 * A tool's `bind` values are what it runs with, and what everyone is shown: an approval request,
 * the run's events and progress show the bound id, never the one a model invented.
 */
import { describe, expect, it } from "vitest";
import { createExecutor } from "../../src/index.js";
import type { RunEvent } from "../../src/run/events.js";

const ask = { messages: [{ role: "user", content: "What is up with T-1001?" }] };
const invented = { message: "We are on it.", user_id: "hacker-session" };
const collect = async (events: AsyncIterable<RunEvent>) => {
  const out: RunEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
};

describe("bound arguments are the ones shown", () => {
  it("an agent's approval request shows the bound user id, and the tool runs with it", async () => {
    const exec = createExecutor({
      checkpointer: "memory",
      scripts: {
        "ticket-agent": [
          { tool_calls: [{ name: "notify_customer", args: invented }] },
          "I told the customer.",
        ],
      },
    });
    const paused = await exec.run("ticket-agent", { input: ask, context: { user_id: "u-7" } });
    expect(paused.interrupts[0]!.value).toMatchObject({
      actionRequests: [
        { name: "notify_customer", args: { message: "We are on it.", user_id: "u-7" } },
      ],
    });
    expect(JSON.stringify(paused.interrupts)).not.toContain("hacker-session");
    const events = await collect(
      exec.stream("ticket-agent", {
        threadId: paused.threadId,
        resume: { decisions: [{ type: "approve" }] },
      }),
    );
    const call = events.find((e) => e.type === "tool_call");
    expect(call).toMatchObject({ tool: "notify_customer", args: { user_id: "u-7" } });
    const done = events.at(-1) as unknown as {
      result: { output: { messages: { content: unknown }[] } };
    };
    expect(done.result.output.messages.at(-2)!.content).toBe("sent to u-7: We are on it.");
    expect(JSON.stringify(events)).not.toContain("hacker-session");
  });

  it("a tools node's tool_call event shows the bound id", async () => {
    const exec = createExecutor({
      dir: "test/fixtures/tool-policy",
      checkpointer: "memory",
      scripts: { policy: [{ tool_calls: [{ name: "notify_customer", args: invented }] }, "Done."] },
    });
    const events = await collect(exec.stream("loop", { input: ask, context: { user_id: "u-9" } }));
    const call = events.find((e) => e.type === "tool_call");
    expect(call).toMatchObject({
      tool: "notify_customer",
      args: { message: "We are on it.", user_id: "u-9" },
    });
  });
});
