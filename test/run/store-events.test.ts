/** The executor takes a `store` like compile() does, and `runtime.writer` output arrives as `custom` events. */
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { createExecutor } from "../../src/index.js";
import type { RunEvent } from "../../src/run/events.js";

const scripts = () => ({
  notes: [{ tool_calls: [{ name: "record_note", args: { note: "refund sent" } }] }, "Noted."],
});
const ask = { messages: [{ role: "user", content: "note it" }] };

describe("store and custom events", () => {
  it("a tool's store writes land in the executor's store; its writer output is a custom event", async () => {
    const store = new InMemoryStore();
    const exec = createExecutor({
      dir: "test/fixtures/tool-runtime",
      checkpointer: "memory",
      store,
      scripts: scripts(),
    });
    const events: RunEvent[] = [];
    for await (const e of exec.stream("notes", { input: ask, context: { account_id: "acc-3" } }))
      events.push(e);
    expect(events.filter((e) => e.type === "custom")).toEqual([
      { type: "custom", node: "run_tools", data: { noting: "refund sent" } },
    ]);
    expect(events.at(-1)).toMatchObject({ type: "completed" });
    expect((await store.get(["notes", "acc-3"], "last"))?.value).toEqual({ note: "refund sent" });
  });

  it('`store: "memory"` gives tools a store of the executor\'s own', async () => {
    const exec = createExecutor({
      dir: "test/fixtures/tool-runtime",
      checkpointer: "memory",
      store: "memory",
      scripts: scripts(),
    });
    const result = await exec.run("notes", { input: ask, context: { account_id: "acc-4" } });
    const seen = JSON.parse((result.output.messages as { content: string }[])[2]!.content) as {
      store: boolean;
    };
    expect(seen.store).toBe(true);
    await exec.close();
  });
});
