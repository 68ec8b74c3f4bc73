/**
 * `maxStateBytes` to the byte, through the package entry's executor on SQLite: a step's writes
 * and a checkpoint's state exactly at the limit are stored, one byte over is refused with the
 * documented `state-too-large` message, and the thread keeps its earlier checkpoints (it stands
 * before the refused step, and a resume with a larger limit runs it). Writes add up over one
 * step: each write of it, and each of its parallel tasks, is under the limit, their sum is not.
 * The sizes are what the real SQLite file stores: one step's writes, and its state's values.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { createExecutor } from "../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-state-exact-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));
// One step writing two values (`both`), and two parallel tasks writing one each (`fan`).
writeFileSync(
  join(dir, "graphs", "both.yaml"),
  `version: 1
name: both
state:
  s: { type: string }
  t: { type: string }
context:
  s: { type: string }
  t: { type: string }
nodes:
  a: { kind: set, values: { s: "\${{ context.s }}", t: "\${{ context.t }}" } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`,
);
writeFileSync(
  join(dir, "graphs", "fan.yaml"),
  `version: 1
name: fan
state:
  s: { type: string }
  t: { type: string }
context:
  s: { type: string }
  t: { type: string }
nodes:
  a: { kind: set, values: { s: "\${{ context.s }}" } }
  b: { kind: set, values: { t: "\${{ context.t }}" } }
edges:
  - { from: START, to: a }
  - { from: START, to: b }
  - { from: a, to: END }
  - { from: b, to: END }
`,
);

const sqlitePath = join(dir, "state.db");
const context = { s: "s".repeat(3000), t: "t".repeat(2000) };
/** The two writes' JSON: each string and its quotes. */
const WRITES = context.s.length + 2 + context.t.length + 2;

/** The thread's largest state, and its largest step's writes, as the SQLite file holds them. */
function stored(threadId: string) {
  const db = SqliteSaver.fromConnString(sqlitePath).db as {
    prepare(sql: string): { all(...args: unknown[]): unknown[] };
    close(): void;
  };
  try {
    const checkpoints = db
      .prepare("SELECT checkpoint FROM checkpoints WHERE thread_id = ?")
      .all(threadId) as { checkpoint: Buffer }[];
    const state = Math.max(
      ...checkpoints.map((c) =>
        Buffer.byteLength(JSON.stringify(JSON.parse(c.checkpoint.toString()).channel_values)),
      ),
    );
    const steps = db
      .prepare(
        "SELECT sum(length(value)) AS bytes FROM writes WHERE thread_id = ? GROUP BY checkpoint_id",
      )
      .all(threadId) as { bytes: number }[];
    return { state, writes: Math.max(...steps.map((s) => s.bytes)) };
  } finally {
    db.close();
  }
}

const run = async (graph: string, threadId: string, maxStateBytes?: number) => {
  const exec = createExecutor({ dir: join(dir, "graphs"), sqlitePath, maxStateBytes });
  try {
    const result = await exec.run(graph, { threadId, context });
    const kept = await exec.inspect(threadId, graph);
    const history = await exec.history(threadId);
    return { result, kept, history };
  } finally {
    await exec.close();
  }
};
const over = (what: string, bytes: number, limit: number) =>
  `${what} would be at least ${bytes.toLocaleString("en-US")} bytes, over the limit of ${limit.toLocaleString("en-US")} bytes`;

describe.each(["both", "fan"])("maxStateBytes to the byte (%s)", (graph) => {
  it("measures what it stores: the step's writes, and a state larger than them", async () => {
    const { result } = await run(graph, `${graph}-free`);
    expect(result.status).toBe("completed");
    const s = stored(`${graph}-free`);
    expect(s.writes).toBe(WRITES);
    expect(s.state).toBeGreaterThan(WRITES);
  });

  it("one byte over the step's writes is refused as the writes'; the thread stands before it", async () => {
    const { result, kept, history } = await run(graph, `${graph}-writes-over`, WRITES - 1);
    expect(result.status).toBe("failed");
    expect(result.error).toMatchObject({ code: "state-too-large", phase: "run" });
    expect(result.error?.message).toContain(over("the writes of this step", WRITES, WRITES - 1));
    expect(kept?.output).toEqual({});
    expect(kept?.next).toEqual(graph === "both" ? ["a"] : ["a", "b"]);
    expect(history?.length).toBeGreaterThan(0);
    expect(stored(`${graph}-writes-over`).state).toBeLessThan(WRITES);
  });

  it("writes exactly at the limit are stored (the state after them is what is refused)", async () => {
    const { result, kept } = await run(graph, `${graph}-writes-at`, WRITES);
    expect(result.error).toMatchObject({ code: "state-too-large" });
    expect(result.error?.message).toMatch(/^the state would be /);
    expect(kept?.next).toEqual(graph === "both" ? ["a"] : ["a", "b"]);
  });

  it("a state exactly at the limit is stored; one byte over is refused and resumes", async () => {
    const state = stored(`${graph}-free`).state;
    const at = await run(graph, `${graph}-state-at`, state);
    expect(at.result.status).toBe("completed");
    expect(at.result.output).toEqual(context);

    const refused = await run(graph, `${graph}-state-over`, state - 1);
    expect(refused.result.error).toMatchObject({ code: "state-too-large", phase: "run" });
    expect(refused.result.error?.message).toContain(over("the state", state, state - 1));
    expect(refused.kept?.output).toEqual({});
    const exec = createExecutor({ dir: join(dir, "graphs"), sqlitePath, maxStateBytes: state });
    try {
      const on = await exec.resume(graph, { threadId: `${graph}-state-over` });
      expect(on.status).toBe("completed");
      expect(on.output).toEqual(context);
    } finally {
      await exec.close();
    }
  });
});

describe("a state within the limit by its count, over it once serialized", () => {
  it("is refused with its serialized size (not `at least`), and the thread stands before it", async () => {
    // Each "é" counts one byte (least-json-bytes.ts) and is two in UTF-8: counted, the state is
    // exactly at the limit; serialized, it is `wide` bytes over. Trusting the count stored it.
    const wide = 20;
    const accented = { s: context.s, t: "é".repeat(wide) };
    const exec = (maxStateBytes?: number) =>
      createExecutor({ dir: join(dir, "graphs"), sqlitePath, maxStateBytes });
    const free = exec();
    expect((await free.run("both", { threadId: "wide-free", context: accented })).status).toBe(
      "completed",
    );
    await free.close();
    const state = stored("wide-free").state;
    const bounded = exec(state - wide);
    try {
      const r = await bounded.run("both", { threadId: "wide-over", context: accented });
      expect(r.error).toMatchObject({ code: "state-too-large", phase: "run" });
      expect(r.error?.message).toContain(
        `the state would be ${state.toLocaleString("en-US")} bytes, over the limit of ${(state - wide).toLocaleString("en-US")} bytes`,
      );
      expect((await bounded.inspect("wide-over", "both"))?.next).toEqual(["a"]);
      expect(stored("wide-over").state).toBeLessThan(state - wide);
    } finally {
      await bounded.close();
    }
  });
});

describe("writes within the limit by their count, over it once serialized", () => {
  it("are refused with their serialized size (not `at least`), before they are stored", async () => {
    // As above: each "é" counts one byte and is two, so the writes' count is at the limit.
    const wide = 20;
    const accented = { s: context.s, t: "é".repeat(wide) };
    const counted = context.s.length + 2 + wide + 2;
    const exec = createExecutor({ dir: join(dir, "graphs"), sqlitePath, maxStateBytes: counted });
    try {
      const r = await exec.run("both", { threadId: "wide-writes", context: accented });
      expect(r.error).toMatchObject({ code: "state-too-large", phase: "run" });
      expect(r.error?.message).toContain(
        `the writes of this step would be ${(counted + wide).toLocaleString("en-US")} bytes, over the limit of ${counted.toLocaleString("en-US")} bytes`,
      );
      expect((await exec.inspect("wide-writes", "both"))?.next).toEqual(["a"]);
    } finally {
      await exec.close();
    }
  });
});

describe("on the memory checkpointer", () => {
  it("a refused step's writes are discarded there too: the thread stands before it", async () => {
    const exec = createExecutor({
      dir: join(dir, "graphs"),
      checkpointer: "memory",
      maxStateBytes: WRITES,
    });
    try {
      // The step's writes are within the limit and stored; the state after them is refused.
      const r = await exec.run("both", { threadId: "mem", context });
      expect(r.error?.message).toMatch(/^the state would be /);
      // Its writes kept, the step would look done: the thread would have nothing next.
      expect((await exec.inspect("mem", "both"))?.next).toEqual(["a"]);
    } finally {
      await exec.close();
    }
  });
});

describe("a step's later write past what is left of the limit", () => {
  it("is refused as soon as its count passes what is left: `at least` just over the limit, not its whole size", async () => {
    writeFileSync(
      join(dir, "graphs", "list.yaml"),
      `version: 1
name: list
state:
  s: { type: string }
  l: { type: array, items: { type: string } }
context:
  s: { type: string }
  l: { type: array, items: { type: string } }
nodes:
  a: { kind: set, values: { s: "\${{ context.s }}", l: "\${{ context.l }}" } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`,
    );
    // The first write takes 3,002 bytes; the second, 400 items of 52, ~21 KB: the count stops
    // once it passes the 1,000 bytes left, well before the list's end.
    const limit = 4002;
    const exec = createExecutor({ dir: join(dir, "graphs"), sqlitePath, maxStateBytes: limit });
    try {
      const l = Array.from({ length: 400 }, (_, i) => `${i}`.padStart(50, "x"));
      const r = await exec.run("list", { threadId: "list-over", context: { s: context.s, l } });
      expect(r.error).toMatchObject({ code: "state-too-large", phase: "run" });
      const least = Number(
        /would be at least ([\d,]+) bytes/.exec(r.error?.message ?? "")?.[1]?.replace(/,/g, ""),
      );
      expect(least).toBeGreaterThan(limit);
      // Counted against what was left (1,000 bytes): at most one item past it.
      expect(least).toBeLessThanOrEqual(limit + 53);
      expect((await exec.inspect("list-over", "list"))?.next).toEqual(["a"]);
    } finally {
      await exec.close();
    }
  });
});
