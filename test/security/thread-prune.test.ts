/**
 * `maxThreadBytes` on SQLite, through the package entry's executor, read back from the real file:
 * a pruned thread keeps as much of its recent history as fits in three quarters of the budget
 * (not less), its newest checkpoint even when that one alone is over the budget, and what a
 * resume needs: a run refused `state-too-large` on a pruned thread goes on from its last good
 * checkpoint.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { createExecutor, type ExecutorOptions } from "../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-thread-prune-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));
// Each step replaces `s`: every checkpoint (and every step's writes) is about one chunk.
writeFileSync(
  join(dir, "graphs", "loop.yaml"),
  `version: 1
name: loop
state:
  s: { type: string }
  n: { type: integer, default: 0 }
context:
  chunk: { type: string }
  steps: { type: integer }
limits: { recursion: 1000 }
nodes:
  step: { kind: set, values: { s: "\${{ context.chunk }}", n: "\${{ state.n + 1 }}" } }
edges:
  - { from: START, to: step }
  - from: step
    route:
      - { when: "state.n >= context.steps", to: END }
      - { default: step }
`,
);

// The same loop with its step a subgraph: each step's run of `inner` stores checkpoints of its own,
// under a namespace of that run (`step:<task id>`) in the same thread.
writeFileSync(
  join(dir, "graphs", "inner.yaml"),
  `version: 1
name: inner
state:
  s: { type: string }
context:
  chunk: { type: string }
nodes:
  fill: { kind: set, values: { s: "\${{ context.chunk }}" } }
edges:
  - { from: START, to: fill }
  - { from: fill, to: END }
`,
);
writeFileSync(
  join(dir, "graphs", "subloop.yaml"),
  `version: 1
name: subloop
state:
  s: { type: string }
  n: { type: integer, default: 0 }
context:
  chunk: { type: string }
  steps: { type: integer }
limits: { recursion: 1000 }
nodes:
  step: { kind: subgraph, graph: ./inner.yaml, input: {}, output: { s: "\${{ output.s }}" } }
  count: { kind: set, values: { n: "\${{ state.n + 1 }}" } }
edges:
  - { from: START, to: step }
  - { from: step, to: count }
  - from: count
    route:
      - { when: "state.n >= context.steps", to: END }
      - { default: step }
`,
);

// A loop whose last step is a subgraph that pauses for a person: pruned while it waits, the
// subgraph's checkpoint is what its resume goes on from.
writeFileSync(
  join(dir, "graphs", "inner-ask.yaml"),
  `version: 1
name: inner-ask
state:
  s: { type: string }
  a: { type: string }
context:
  big: { type: string }
nodes:
  fill: { kind: set, values: { s: "\${{ context.big }}" } }
  ask: { kind: interrupt, payload: { question: "go on?" }, schema: { type: string }, write: a }
edges:
  - { from: START, to: fill }
  - { from: fill, to: ask }
  - { from: ask, to: END }
`,
);
writeFileSync(
  join(dir, "graphs", "pausing.yaml"),
  `version: 1
name: pausing
state:
  s: { type: string }
  a: { type: string }
  n: { type: integer, default: 0 }
context:
  chunk: { type: string }
  big: { type: string }
  steps: { type: integer }
limits: { recursion: 1000 }
nodes:
  warm: { kind: set, values: { s: "\${{ context.chunk }}", n: "\${{ state.n + 1 }}" } }
  sub: { kind: subgraph, graph: ./inner-ask.yaml, input: {}, output: { a: "\${{ output.a }}" } }
edges:
  - { from: START, to: warm }
  - from: warm
    route:
      - { when: "state.n >= context.steps", to: sub }
      - { default: warm }
  - { from: sub, to: END }
`,
);

const KiB = 1024;
const sqlitePath = join(dir, "state.db");
const executor = (options: ExecutorOptions) =>
  createExecutor({ dir: join(dir, "graphs"), sqlitePath, ...options });

/** The thread's checkpoints and writes in the SQLite file: all their bytes, and one step's most. */
function stored(threadId: string) {
  const db = SqliteSaver.fromConnString(sqlitePath).db as {
    prepare(sql: string): { get(...args: unknown[]): unknown };
    close(): void;
  };
  try {
    return db
      .prepare(
        `SELECT (SELECT sum(length(checkpoint) + length(metadata)) FROM checkpoints WHERE thread_id = @t)
              + (SELECT coalesce(sum(length(value)), 0) FROM writes WHERE thread_id = @t) AS bytes,
                (SELECT max(length(c.checkpoint) + length(c.metadata)
                   + (SELECT coalesce(sum(length(w.value)), 0) FROM writes w
                      WHERE w.thread_id = c.thread_id AND w.checkpoint_id = c.checkpoint_id))
                 FROM checkpoints c WHERE c.thread_id = @t) AS step`,
      )
      .get({ t: threadId }) as { bytes: number; step: number };
  } finally {
    db.close();
  }
}

/** The steps the thread's history holds, newest first. */
const steps = async (exec: ReturnType<typeof executor>, threadId: string) =>
  ((await exec.history(threadId)) ?? []).map((h) => h.step);

/**
 * The thread's checkpoints in the SQLite file, oldest first: namespace, id, parent, their own bytes
 * and their writes' bytes.
 */
function rows(threadId: string) {
  const db = SqliteSaver.fromConnString(sqlitePath).db as {
    prepare(sql: string): { all(...args: unknown[]): unknown[] };
    close(): void;
  };
  try {
    return db
      .prepare(
        `SELECT checkpoint_ns AS ns, checkpoint_id AS id, parent_checkpoint_id AS parent,
                length(checkpoint) + length(metadata) AS own,
                (SELECT coalesce(sum(length(value)), 0) FROM writes w WHERE w.thread_id = c.thread_id
                   AND w.checkpoint_ns = c.checkpoint_ns AND w.checkpoint_id = c.checkpoint_id) AS writes
         FROM checkpoints c WHERE thread_id = ? ORDER BY checkpoint_id`,
      )
      .all(threadId) as {
      ns: string;
      id: string;
      parent: string | null;
      own: number;
      writes: number;
    }[];
  } finally {
    db.close();
  }
}

describe("a pruned thread", () => {
  it("with subgraph checkpoints drops its oldest checkpoints of every namespace, in time order", async () => {
    // SQLite lists a thread's keys by namespace, then id: the parent's ("") before its
    // subgraphs' (`step:<task id>`). Pruned in that order, the parent's recent history would go
    // before its subgraphs' oldest checkpoints.
    const exec = executor({ maxThreadBytes: 40 * KiB });
    try {
      const r = await exec.run("subloop", {
        threadId: "sub",
        context: { chunk: "u".repeat(256), steps: 12 },
      });
      expect(r.status).toBe("completed");
      const kept = rows("sub");
      const newest = new Map(kept.map((k) => [k.ns, k.id]));
      const parents = kept.filter((k) => k.ns === "");
      // The parent's oldest kept checkpoint's parent was dropped: so was every older checkpoint,
      // but for the newest of each namespace (which always stays).
      const dropped = parents[0]?.parent;
      expect(dropped).toBeTruthy();
      expect(parents.length).toBeGreaterThan(1);
      const older = kept.filter((k) => newest.get(k.ns) !== k.id && k.id < dropped!);
      expect(older).toEqual([]);
      // Subgraph checkpoints other than their namespace's newest are kept: the recent ones.
      expect(kept.some((k) => k.ns !== "" && newest.get(k.ns) !== k.id)).toBe(true);
    } finally {
      await exec.close();
    }
  });

  it("that loops through a subgraph stays within maxThreadBytes: ended subgraph runs are pruned", async () => {
    // Every step's subgraph run has a namespace of its own; were the newest of each kept, the
    // thread would grow by one a step, past any budget.
    const budget = 12 * KiB;
    const exec = executor({ maxThreadBytes: budget });
    try {
      const r = await exec.run("subloop", {
        threadId: "sub-loop",
        context: { chunk: "l".repeat(512), steps: 40 },
      });
      expect(r.status).toBe("completed");
      expect(r.output.n).toBe(40);
      expect(stored("sub-loop").bytes).toBeLessThanOrEqual(budget);
      const kept = rows("sub-loop");
      const namespaces = new Set(kept.filter((k) => k.ns !== "").map((k) => k.ns));
      expect(namespaces.size).toBeGreaterThan(0);
      expect(namespaces.size).toBeLessThan(10);
      // What is kept has no gaps: every kept subgraph checkpoint is newer than the parent's oldest.
      const oldest = kept.find((k) => k.ns === "")!.id;
      expect(kept.filter((k) => k.id < oldest)).toEqual([]);
    } finally {
      await exec.close();
    }
  });

  it("keeps a subgraph paused in the current step, and the subgraph resumes from it", async () => {
    const budget = 8 * KiB;
    const exec = executor({ maxThreadBytes: budget });
    try {
      const context = { chunk: "w".repeat(KiB), big: "B".repeat(4 * KiB), steps: 20 };
      const paused = await exec.run("pausing", { threadId: "paused-sub", context });
      expect(paused.status).toBe("interrupted");
      const kept = rows("paused-sub");
      const parentNewest = kept.filter((k) => k.ns === "").at(-1)!.id;
      const sub = kept.filter((k) => k.ns !== "");
      // Pruned while paused, down to what must stay: the parent's newest checkpoint, and of the
      // subgraph's two (its input, and after \`fill\`) the newest, of the current step.
      expect(kept.filter((k) => k.ns === "").length).toBe(1);
      expect(sub.length).toBe(1);
      expect(sub[0]!.id > parentNewest).toBe(true);
      const done = await exec.resume("pausing", { threadId: "paused-sub", value: "yes" });
      // Resumed from its pause, not run again from the start (which would pause again).
      expect(done.status).toBe("completed");
      expect(done.output).toMatchObject({ a: "yes", n: 20 });
    } finally {
      await exec.close();
    }
  });

  it("keeps its recent history down to three quarters of maxThreadBytes, not less", async () => {
    const budget = 32 * KiB;
    const exec = executor({ maxThreadBytes: budget });
    try {
      const r = await exec.run("loop", {
        threadId: "kept",
        context: { chunk: "k".repeat(KiB), steps: 120 },
      });
      expect(r.status).toBe("completed");
      const s = stored("kept");
      expect(s.bytes).toBeLessThanOrEqual(budget);
      // Pruned to three quarters and grown since: no fewer bytes than that less one step's.
      expect(s.bytes).toBeGreaterThan(budget * 0.75 - s.step);
      const kept = await steps(exec, "kept");
      expect(kept[0]).toBe(120);
      expect(kept[0]! - kept.at(-1)!).toBe(kept.length - 1);
      expect(kept.at(-1)).toBeGreaterThan(0);
    } finally {
      await exec.close();
    }
  });

  it("keeps its newest checkpoint even when it alone is over the budget, and goes on from it", async () => {
    const budget = 8 * KiB;
    const exec = executor({ maxThreadBytes: budget });
    try {
      const context = { chunk: "b".repeat(12 * KiB), steps: 3 };
      const r = await exec.run("loop", { threadId: "big", context });
      expect(r.status).toBe("completed");
      expect(await steps(exec, "big")).toEqual([3]);
      expect((await exec.state("big"))?.values).toEqual({ s: context.chunk, n: 3 });
      const on = await exec.run("loop", { threadId: "big", context: { ...context, steps: 5 } });
      expect(on.status).toBe("completed");
      expect(on.output.n).toBe(5);
    } finally {
      await exec.close();
    }
  });

  it("refused state-too-large, resumes from its last good checkpoint", async () => {
    const options = { maxThreadBytes: 16 * KiB };
    const strict = executor({ ...options, maxStateBytes: 4 * KiB });
    try {
      // Within the state limit for 40 steps of 1 KiB (pruned on the way), then a 5 KiB chunk.
      const first = await strict.run("loop", {
        threadId: "resume",
        context: { chunk: "r".repeat(KiB), steps: 40 },
      });
      expect(first.status).toBe("completed");
      const refused = await strict.run("loop", {
        threadId: "resume",
        context: { chunk: "R".repeat(5 * KiB), steps: 45 },
      });
      expect(refused.error).toMatchObject({ code: "state-too-large" });
      const kept = await strict.inspect("resume", "loop");
      expect(kept?.output.n).toBe(40);
      expect(kept?.next).toEqual(["step"]);
    } finally {
      await strict.close();
    }
    const roomy = executor(options);
    try {
      const on = await roomy.resume("loop", { threadId: "resume" });
      expect(on.status).toBe("completed");
      expect(on.output.n).toBe(45);
      expect((await steps(roomy, "resume"))[0]).toBeGreaterThan(40);
    } finally {
      await roomy.close();
    }
  });

  it("stops dropping checkpoints when what is left is exactly three quarters of the budget", async () => {
    // Two threads (ids of one length: their rows take the same bytes) run the same 40 steps, then
    // one more in another run. The first, never pruned, shows what the second holds when its
    // second run's first checkpoint is stored: that executor's first count of the thread, and
    // its prune. The budget is the one whose three quarters is what is left after dropping the
    // oldest k checkpoints.
    const context = { chunk: "q".repeat(KiB), steps: 40 };
    const more = { ...context, steps: 41 };
    const free = executor({});
    let before: number;
    try {
      for (const threadId of ["q-ref", "q-tst"])
        expect((await free.run("loop", { threadId, context })).status).toBe("completed");
      before = rows("q-ref").length;
      expect((await free.run("loop", { threadId: "q-ref", context: more })).status).toBe(
        "completed",
      );
    } finally {
      await free.close();
    }
    const all = rows("q-ref");
    // At the prune: the first run's rows and writes, and the second run's first checkpoint.
    const bytes = all.slice(0, before).map((r) => r.own + r.writes);
    const total = bytes.reduce((a, b) => a + b, 0) + all[before]!.own;
    let kept = total;
    let k = 0;
    let budget = total;
    for (; k < before; ) {
      kept -= bytes[k++]!;
      budget = Math.ceil(kept / 0.75);
      if (budget < total) break;
    }
    expect(Math.floor(budget * 0.75)).toBe(kept);
    // What the second run stores after the prune stays within the budget: no second prune.
    expect(budget - kept).toBeGreaterThan(4 * (all[before + 1]!.own + 2 * KiB));
    const exec = executor({ maxThreadBytes: budget });
    try {
      expect((await exec.run("loop", { threadId: "q-tst", context: more })).status).toBe(
        "completed",
      );
    } finally {
      await exec.close();
    }
    expect(rows("q-tst").length).toBe(all.length - k);
  });

  it("is pruned only past maxThreadBytes: a thread exactly at it keeps every checkpoint", async () => {
    const context = { chunk: "e".repeat(KiB), steps: 6 };
    const free = executor({});
    let all: number[];
    try {
      expect((await free.run("loop", { threadId: "at-free", context })).status).toBe("completed");
      all = await steps(free, "at-free");
    } finally {
      await free.close();
    }
    // Thread ids of one length: their rows take the same bytes.
    const total = stored("at-free").bytes;
    for (const [threadId, budget, kept] of [
      ["at-full", total, all.length],
      ["at-over", total - 1, undefined],
    ] as const) {
      const exec = executor({ maxThreadBytes: budget });
      try {
        expect((await exec.run("loop", { threadId, context })).status).toBe("completed");
        const history = await steps(exec, threadId);
        if (kept) expect(history).toEqual(all);
        else {
          expect(history.length).toBeLessThan(all.length);
          expect(stored(threadId).bytes).toBeLessThanOrEqual(budget * 0.75);
        }
      } finally {
        await exec.close();
      }
    }
  });
});
