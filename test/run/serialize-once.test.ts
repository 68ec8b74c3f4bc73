/**
 * A bounded SQLite checkpointer serializes a large state once (src/run/serialize-once.ts): the
 * bytes the state bound measured are the bytes stored. A user's own subclass of SqliteSaver is
 * SQLite too and is served the same; so is MemorySaver.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BaseCheckpointSaver, MemorySaver } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createExecutor } from "../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-serialize-once-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(
  join(dir, "fill.yaml"),
  `version: 1
name: fill
state:
  s: { type: string }
context:
  big: { type: string }
nodes:
  fill: { kind: set, values: { s: "\${{ context.big }}" } }
edges:
  - { from: START, to: fill }
  - { from: fill, to: END }
`,
);

const BIG = "Q".repeat(32 * 1024);

/** How many times one run writes BIG as JSON (LangGraph's serializer is JSON.stringify's). */
async function serializations(saver: BaseCheckpointSaver): Promise<number> {
  let count = 0;
  const stringify = JSON.stringify;
  const spy = vi
    .spyOn(JSON, "stringify")
    .mockImplementation((...args: Parameters<typeof stringify>) => {
      const text = stringify(...args);
      if (text?.includes(BIG)) count += 1;
      return text;
    });
  const exec = createExecutor({ dir, checkpointer: saver, maxStateBytes: 1024 * 1024 });
  try {
    const r = await exec.run("fill", { threadId: "t", context: { big: BIG } });
    expect(r.status).toBe("completed");
    expect(r.output.s).toBe(BIG);
  } finally {
    await exec.close();
    spy.mockRestore();
  }
  return count;
}

const sqlite = () => SqliteSaver.fromConnString(":memory:");

// A run writes BIG as JSON in other places too (its output, events): counted against SqliteSaver's
// own, measured the same way, a saver serializing the stored state again counts one more.
describe("a bounded checkpointer serializes a large state once", () => {
  it("a subclass of SqliteSaver as often as SqliteSaver itself", async () => {
    class TeamSaver extends SqliteSaver {}
    const own = await serializations(sqlite());
    expect(await serializations(new TeamSaver(sqlite().db))).toBe(own);
  });

  it("MemorySaver as often as SqliteSaver", async () => {
    const own = await serializations(sqlite());
    expect(await serializations(new MemorySaver())).toBe(own);
  });
});
