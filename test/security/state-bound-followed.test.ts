/**
 * What the state and thread bounds follow in memory between their counts is bounded too
 * (checkpoint-bounds.ts): a step's running total of writes for the 1,000 most recent steps, and a
 * thread's stored bytes for the 10,000 threads most recently counted. Past them the oldest is
 * forgotten, and counted afresh: a thread is counted in the database again at its next checkpoint
 * (and pruned), a step's later writes are counted from zero. A long-lived server's maps would
 * otherwise grow with every step and thread it ever ran.
 *
 * Through a checkpointer as a user configures it (a SqliteSaver of theirs, here in memory), which
 * the executor bounds in place; its puts are then called directly, as LangGraph calls them: 10,000
 * threads through runs would take minutes.
 */
import { emptyCheckpoint } from "@langchain/langgraph-checkpoint";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { describe, expect, it } from "vitest";
import { createExecutor } from "../../src/index.js";

const KiB = 1024;

/** A user's SqliteSaver, bounded by an executor given it (the executor opens it on first use). */
async function boundedSaver(limits: { maxStateBytes?: number; maxThreadBytes?: number }) {
  const saver = SqliteSaver.fromConnString(":memory:");
  const exec = createExecutor({ checkpointer: saver, ...limits });
  await exec.threads();
  expect(saver.put).not.toBe(SqliteSaver.prototype.put);
  return { saver, exec };
}

const config = (threadId: string, checkpointId?: string) => ({
  configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: checkpointId },
});

/** A checkpoint holding `s`. */
const checkpoint = (s: string) => ({ ...emptyCheckpoint(), channel_values: { s } });

const metadata = { source: "loop" as const, step: 0, parents: {} };

describe("the bounds' followed totals", () => {
  it("follow 10,000 threads: past them the least recently counted is counted again, and pruned", async () => {
    const { saver, exec } = await boundedSaver({ maxThreadBytes: 64 * KiB });
    try {
      const db = saver.db as { prepare(sql: string): { get(...args: unknown[]): unknown } };
      const bytesOf = (threadId: string) =>
        (
          db
            .prepare(
              "SELECT sum(length(checkpoint) + length(metadata)) AS n FROM checkpoints WHERE thread_id = ?",
            )
            .get(threadId) as { n: number }
        ).n;
      const put = (threadId: string, s = "") =>
        saver.put(config(threadId), checkpoint(s), metadata);
      // `a` is counted (a first checkpoint), then grows past its budget where its executor does
      // not see it: a checkpoint stored without the bounds (by another process, say).
      await put("a");
      await SqliteSaver.prototype.put.call(
        saver,
        config("a"),
        checkpoint("x".repeat(100 * KiB)),
        metadata,
      );
      // 9,999 more threads: 10,000 followed. `a`'s next checkpoint goes by what was followed.
      for (let i = 0; i < 9_999; i++) await put(`t${i}`);
      await put("a");
      expect(bytesOf("a")).toBeGreaterThan(100 * KiB);
      // One more thread: `a`, the least recently counted, is no longer followed. Its next
      // checkpoint counts it in the database, over its budget: its older checkpoints go.
      await put("t9999");
      await put("a");
      expect(bytesOf("a")).toBeLessThanOrEqual(48 * KiB);
    } finally {
      await exec.close();
    }
  });

  it("follow a thread counted again as the most recently counted", async () => {
    const { saver, exec } = await boundedSaver({ maxThreadBytes: 64 * KiB });
    try {
      const db = saver.db as { prepare(sql: string): { get(...args: unknown[]): unknown } };
      const bytesOf = (threadId: string) =>
        (
          db
            .prepare(
              "SELECT sum(length(checkpoint) + length(metadata)) AS n FROM checkpoints WHERE thread_id = ?",
            )
            .get(threadId) as { n: number }
        ).n;
      const put = (threadId: string) => saver.put(config(threadId), checkpoint(""), metadata);
      await put("b");
      for (let i = 0; i < 9_999; i++) await put(`t${i}`);
      // `b`'s 32nd checkpoint since its count counts it again: now the most recently counted.
      for (let i = 0; i < 32; i++) await put("b");
      await SqliteSaver.prototype.put.call(
        saver,
        config("b"),
        checkpoint("x".repeat(100 * KiB)),
        metadata,
      );
      // One more thread: `t0` is forgotten, not `b`, whose next checkpoint goes by what was followed.
      await put("t9999");
      await put("b");
      expect(bytesOf("b")).toBeGreaterThan(100 * KiB);
    } finally {
      await exec.close();
    }
  });

  it("count a followed thread again at its 32nd checkpoint since its last count", async () => {
    const { saver, exec } = await boundedSaver({ maxThreadBytes: 128 * KiB });
    try {
      const db = saver.db as { prepare(sql: string): { get(...args: unknown[]): unknown } };
      const bytesOf = () =>
        (
          db
            .prepare(
              "SELECT sum(length(checkpoint) + length(metadata)) AS n FROM checkpoints WHERE thread_id = 'r'",
            )
            .get() as { n: number }
        ).n;
      const put = () => saver.put(config("r"), checkpoint(""), metadata);
      await put();
      await SqliteSaver.prototype.put.call(
        saver,
        config("r"),
        checkpoint("x".repeat(200 * KiB)),
        metadata,
      );
      // 31 small checkpoints: what is followed (about 2 KiB each) stays under the budget.
      for (let i = 0; i < 31; i++) await put();
      expect(bytesOf()).toBeGreaterThan(200 * KiB);
      // The 32nd: counted in the database, over its budget, and pruned.
      await put();
      expect(bytesOf()).toBeLessThanOrEqual(96 * KiB);
    } finally {
      await exec.close();
    }
  });

  it("count a followed thread again once what it was stored since could take it past its budget", async () => {
    const { saver, exec } = await boundedSaver({ maxThreadBytes: 40 * KiB });
    try {
      const db = saver.db as { prepare(sql: string): { get(...args: unknown[]): unknown } };
      const bytesOf = () =>
        (
          db
            .prepare(
              "SELECT sum(length(checkpoint) + length(metadata)) AS n FROM checkpoints WHERE thread_id = 'g'",
            )
            .get() as { n: number }
        ).n;
      const put = () => saver.put(config("g"), checkpoint(""), metadata);
      await put();
      await SqliteSaver.prototype.put.call(
        saver,
        config("g"),
        checkpoint("x".repeat(60 * KiB)),
        metadata,
      );
      // A checkpoint is reckoned at its values' bytes and 2 KiB for the rest of its row: 15 of
      // them (about 30 KiB) stay under the budget; by the 20th they do not, well before the 32nd.
      for (let i = 0; i < 15; i++) await put();
      expect(bytesOf()).toBeGreaterThan(60 * KiB);
      for (let i = 0; i < 10; i++) await put();
      expect(bytesOf()).toBeLessThanOrEqual(30 * KiB);
    } finally {
      await exec.close();
    }
  });

  it("follow a step written again as the most recent", async () => {
    const { saver, exec } = await boundedSaver({ maxStateBytes: 4 * KiB });
    try {
      const write = (checkpointId: string, task: string, bytes: number) =>
        saver.putWrites(config("v", checkpointId), [["s", "x".repeat(bytes)]], task);
      await write("first", "one", 3 * KiB);
      for (let i = 0; i < 999; i++) await write(`c${i}`, "t", 1);
      // Written again: now the most recent of the 1,000, so the next step forgets `c0`, not it.
      await write("first", "two", 10);
      await write("c999", "t", 1);
      await expect(write("first", "three", 2 * KiB)).rejects.toMatchObject({
        code: "state-too-large",
      });
    } finally {
      await exec.close();
    }
  });

  it("follow 1,000 steps' writes: past them the oldest step's later writes are counted from zero", async () => {
    const { saver, exec } = await boundedSaver({ maxStateBytes: 4 * KiB });
    try {
      const write = (checkpointId: string, task: string, bytes: number) =>
        saver.putWrites(config("w", checkpointId), [["s", "x".repeat(bytes)]], task);
      await write("first", "one", 3 * KiB);
      // 999 more steps: 1,000 followed. The first step's second task is over with the first's.
      for (let i = 0; i < 999; i++) await write(`c${i}`, "t", 1);
      await expect(write("first", "two", 2 * KiB)).rejects.toMatchObject({
        code: "state-too-large",
      });
      // One more step: the first is forgotten, and its next writes are counted alone.
      await write("c999", "t", 1);
      await expect(write("first", "two", 2 * KiB)).resolves.toBeUndefined();
    } finally {
      await exec.close();
    }
  });
});
