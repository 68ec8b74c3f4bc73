/**
 * Tools as LangGraph has them: a tool reads its runtime (tool call id, state, context, store,
 * writer) and may return a Command that updates the state, which the `tools` node passes on.
 */
import { InMemoryStore, MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { compile, createExecutor } from "../../src/index.js";

const spec = "test/fixtures/tool-runtime/notes.yaml";
const ask = { messages: [{ role: "user", content: "note it" }] };
const calling = (name: string, args: Record<string, unknown>) => ({
  notes: [{ tool_calls: [{ name, args }] }, "Noted."],
});

describe("a tool's runtime and its Command", () => {
  it("a tool reads the call id, state, context, store and writer, and its Command updates the state", async () => {
    const store = new InMemoryStore();
    const graph = await compile(spec, {
      checkpointer: new MemorySaver(),
      store,
      scripts: calling("record_note", { note: "refund sent", account_id: "hacker" }),
    });
    const custom: unknown[] = [];
    let final: Record<string, unknown> = {};
    for await (const [mode, chunk] of await graph.stream(ask as never, {
      configurable: { thread_id: "r1" },
      context: { account_id: "acc-7" },
      streamMode: ["custom", "values"],
    })) {
      if (mode === "custom") custom.push(chunk);
      else final = chunk as Record<string, unknown>;
    }
    // The bound id, never the model's.
    expect(final.notes).toEqual(["acc-7: refund sent"]);
    const toolMessage = (final.messages as { content: string; tool_call_id: string }[])[2]!;
    expect(JSON.parse(toolMessage.content)).toEqual({
      toolCallId: "call_1",
      topic: "billing",
      context: "acc-7",
      store: true,
    });
    expect(toolMessage.tool_call_id).toBe("call_1");
    expect(custom).toEqual([{ noting: "refund sent" }]);
    expect((await store.get(["notes", "acc-7"], "last"))?.value).toEqual({ note: "refund sent" });
  });

  it("through the executor, too", async () => {
    const exec = createExecutor({
      dir: "test/fixtures/tool-runtime",
      checkpointer: "memory",
      scripts: calling("record_note", { note: "called back" }),
    });
    const result = await exec.run("notes", { input: ask, context: { account_id: "acc-1" } });
    expect(result).toMatchObject({
      status: "completed",
      output: { notes: ["acc-1: called back"] },
    });
  });

  it("a Command that leaves its call unanswered, or sends the run elsewhere, fails the node and says why", async () => {
    for (const [tool, message] of [
      ["forgetful", /no tool message answering its call/],
      ["jumper", /sends the run to another node/],
    ] as const) {
      const exec = createExecutor({
        dir: "test/fixtures/tool-runtime",
        checkpointer: "memory",
        scripts: calling(tool, {}),
      });
      const result = await exec.run("notes", { input: ask, context: { account_id: "a" } });
      expect(result).toMatchObject({
        status: "failed",
        error: { code: "tool-error", node: "run_tools" },
      });
      expect(result.error!.message).toMatch(message);
      expect(result.error!.hint).toMatch(/Command/);
    }
  });

  it("in an agent, a tool's Command writes the graph's channels too, not only the agent's messages", async () => {
    const exec = createExecutor({
      dir: "test/fixtures/tool-runtime",
      checkpointer: "memory",
      scripts: {
        "agent-notes": [{ tool_calls: [{ name: "record_note", args: { note: "x" } }] }, "ok"],
      },
    });
    const result = await exec.run("agent-notes", { input: ask, context: { account_id: "acc-2" } });
    expect(result.error).toBeUndefined();
    expect(result.output.notes).toEqual(["acc-2: x"]);
    const messages = result.output.messages as { content: string }[];
    expect(messages.map((m) => m.content).at(-1)).toBe("ok");
  });
});
