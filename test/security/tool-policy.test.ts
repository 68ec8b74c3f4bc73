/**
 * The run's tool allowlist (`allowedTools`, `configurable.toolIds`): a model's call of a tool the
 * run does not allow never runs — in a `tools` node, in an agent (after an approval, edited or
 * not), inside a subgraph, on a resume that does not repeat the list — and the model is told
 * which tools it may use.
 */
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { compile, createExecutor } from "../../src/index.js";
import type { RunEvent } from "../../src/run/events.js";

const dir = "test/fixtures/tool-policy";
const ask = { messages: [{ role: "user", content: "What is up with T-1001?" }] };
type Msg = { type?: string; content?: unknown; status?: string; artifact?: unknown };
const toolMessages = (output: Record<string, unknown>) =>
  (output.messages as Msg[]).filter(
    (m) => m.type === "tool" || (m as { _getType?: () => string })._getType?.() === "tool",
  );
const collect = async (events: AsyncIterable<RunEvent>) => {
  const out: RunEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
};

const callThenAnswer = (...calls: { name: string; args: Record<string, unknown> }[]) => ({
  policy: [{ tool_calls: calls }, "Done."],
});

describe("tool allowlist: a tools node", () => {
  it("a denied call does not run; the model is told what it may use, with errorCode policy_denied", async () => {
    const exec = createExecutor({
      dir,
      checkpointer: "memory",
      scripts: callThenAnswer(
        { name: "notify_customer", args: { message: "hi" } },
        { name: "lookup_ticket", args: { ticket_id: "T-1001" } },
      ),
    });
    const events = await collect(
      exec.stream("loop", { input: ask, allowedTools: ["lookup_ticket"] }),
    );
    const result = (
      events.at(-1) as { result: { status: string; output: Record<string, unknown> } }
    ).result;
    expect(result.status).toBe("completed");
    const [denied, looked] = toolMessages(result.output) as Msg[];
    expect(denied).toMatchObject({
      status: "error",
      content:
        'Error: tool "notify_customer" is not allowed in this run. You may use: lookup_ticket.',
      artifact: {
        errorCode: "policy_denied",
        tool: "notify_customer",
        allowedTools: ["lookup_ticket"],
      },
    });
    expect(String(looked!.content)).toContain("Cannot log in");
    // Never ran: no tool_call event for it, one tool_denied event.
    expect(
      events.filter((e) => e.type === "tool_call").map((e) => (e as { tool: string }).tool),
    ).toEqual(["lookup_ticket"]);
    expect(events.filter((e) => e.type === "tool_denied")).toEqual([
      {
        type: "tool_denied",
        node: "run_tools",
        tool: "notify_customer",
        args: { message: "hi" },
        allowedTools: ["lookup_ticket"],
      },
    ]);
  });

  it("a name that differs in case or whitespace is not the allowed tool, and does not run either", async () => {
    const exec = createExecutor({
      dir,
      checkpointer: "memory",
      scripts: callThenAnswer(
        { name: "Notify_Customer", args: { message: "hi" } },
        { name: " notify_customer", args: { message: "hi" } },
      ),
    });
    const result = await exec.run("loop", { input: ask, allowedTools: ["lookup_ticket"] });
    const out = toolMessages(result.output);
    expect(out).toHaveLength(2);
    for (const m of out) {
      expect(m).toMatchObject({ status: "error", artifact: { errorCode: "policy_denied" } });
      expect(String(m.content)).not.toContain("sent to");
    }
  });

  it("an allowlist that allows nothing denies every call; one that is not a list is refused", async () => {
    const exec = createExecutor({
      dir,
      checkpointer: "memory",
      scripts: callThenAnswer({ name: "lookup_ticket", args: { ticket_id: "T-1001" } }),
    });
    const none = await exec.run("loop", { input: ask, allowedTools: [] });
    expect(toolMessages(none.output)[0]).toMatchObject({
      status: "error",
      content:
        'Error: tool "lookup_ticket" is not allowed in this run. This run may not use any tool: answer without one.',
    });
    const bad = await exec.run("loop", { input: ask, allowedTools: "lookup_ticket" as never });
    expect(bad).toMatchObject({
      status: "failed",
      error: { code: "invalid-input", field: "allowedTools" },
    });
  });

  it("holds inside a subgraph", async () => {
    const exec = createExecutor({
      dir,
      checkpointer: "memory",
      scripts: callThenAnswer({ name: "notify_customer", args: { message: "hi" } }),
    });
    const result = await exec.run("parent", { input: ask, allowedTools: ["lookup_ticket"] });
    expect(result.status).toBe("completed");
    expect(toolMessages(result.output)[0]).toMatchObject({
      status: "error",
      artifact: { errorCode: "policy_denied" },
    });
  });

  it("compile() users and server clients give it as configurable.toolIds", async () => {
    const graph = await compile(`${dir}/loop.yaml`, {
      checkpointer: new MemorySaver(),
      scripts: callThenAnswer({ name: "notify_customer", args: { message: "hi" } }),
    });
    const out = await graph.invoke(ask as never, {
      configurable: { thread_id: "c1", toolIds: ["lookup_ticket"] },
    });
    expect(toolMessages(out as Record<string, unknown>)[0]).toMatchObject({
      status: "error",
      artifact: { errorCode: "policy_denied" },
    });
  });
});

describe("tool allowlist: an agent", () => {
  const scripts = () => ({
    policy: [
      { tool_calls: [{ name: "notify_customer", args: { message: "We are on it." } }] },
      "I could not tell the customer.",
    ],
  });

  it("an approved call of a denied tool does not run, on a resume that does not repeat the list", async () => {
    const exec = createExecutor({ dir, checkpointer: "memory", scripts: scripts() });
    const paused = await exec.run("agent", {
      input: ask,
      threadId: "a1",
      allowedTools: ["lookup_ticket"],
    });
    expect(paused.status).toBe("interrupted");
    // The resume gives no allowlist: the thread's own holds.
    const done = await exec.resume("agent", {
      threadId: "a1",
      value: { decisions: [{ type: "approve" }] },
    });
    expect(done.status).toBe("completed");
    expect(toolMessages(done.output)[0]).toMatchObject({
      status: "error",
      artifact: { errorCode: "policy_denied", tool: "notify_customer" },
    });
  });

  it("an edit that renames the call to a denied tool is denied too", async () => {
    const exec = createExecutor({
      dir,
      checkpointer: "memory",
      scripts: {
        policy: [{ tool_calls: [{ name: "notify_customer", args: { message: "x" } }] }, "Done."],
      },
    });
    await exec.run("agent", { input: ask, threadId: "a2", allowedTools: ["lookup_ticket"] });
    const done = await exec.resume("agent", {
      threadId: "a2",
      allowedTools: ["lookup_ticket"],
      value: {
        decisions: [
          { type: "edit", editedAction: { name: "notify_customer", args: { message: "edited" } } },
        ],
      },
    });
    const [m] = toolMessages(done.output);
    expect(m).toMatchObject({ status: "error", artifact: { errorCode: "policy_denied" } });
    expect(String(m!.content)).not.toContain("sent to");
  });

  it("an allowed tool runs as before", async () => {
    const exec = createExecutor({ dir, checkpointer: "memory", scripts: scripts() });
    await exec.run("agent", { input: ask, threadId: "a3", allowedTools: ["notify_customer"] });
    const done = await exec.resume("agent", {
      threadId: "a3",
      value: { decisions: [{ type: "approve" }] },
    });
    expect(toolMessages(done.output)[0]).toMatchObject({ content: "sent to u-1: We are on it." });
  });
});
