/** The executor: runs by graph name, pauses and resumes on threads, sums usage, reports failures as data. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createExecutor } from "../../src/run/executor.js";
import { closeAfterAll } from "../support/close-after-all.js";

const tmp = mkdtempSync(join(tmpdir(), "graphspec-exec-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const closing = closeAfterAll();

const urgent = {
  "support-triage": [
    {
      structured: { priority: "urgent", reason: "locked out" },
      usage: { input_tokens: 20, output_tokens: 5 },
    },
  ],
};
const routine = {
  "support-triage": [
    {
      structured: { priority: "low", reason: "billing" },
      usage: { input_tokens: 20, output_tokens: 5 },
    },
    {
      tool_calls: [{ name: "lookup_ticket", args: { ticket_id: "T-1002" } }],
      usage: { input_tokens: 30, output_tokens: 6 },
    },
    { text: "It is open.", usage: { input_tokens: 40, output_tokens: 4 } },
  ],
};
const context = { user_id: "u-42" };

describe("runs and resumes", () => {
  it("pauses at the approval, and completes when resumed", async () => {
    const exec = createExecutor({ checkpointer: "memory", scripts: urgent });
    const paused = await exec.run("support-triage", {
      input: { ticket: "T-1001: locked out" },
      threadId: "t1",
      context,
    });
    expect(paused).toMatchObject({
      status: "interrupted",
      threadId: "t1",
      interrupts: [{ node: "approval", value: { question: "Escalate T-1001: locked out?" } }],
      next: ["approval"],
      usage: { inputTokens: 20, outputTokens: 5, totalTokens: 25 },
    });
    expect(paused.interrupts[0]!.id).toMatch(/\w+/);
    expect(paused.checkpointId).toBeDefined();
    expect(paused.warnings[0]).toMatch(/checkpoints are kept in memory only/);
    const done = await exec.resume("support-triage", { threadId: "t1", value: true, context });
    expect(done).toMatchObject({ status: "completed", interrupts: [], next: [] });
    expect(done.output.notes).toEqual(["locked out", "sent to u-42: Your ticket is urgent."]);
    expect(done.output).not.toHaveProperty("ticket"); // not among the spec's `output` keys
  });

  it("sums usage over every model call of the run", async () => {
    const exec = createExecutor({ checkpointer: "memory", scripts: routine });
    const done = await exec.run("support-triage", { input: { ticket: "T-1002" }, context });
    expect(done.status).toBe("completed");
    expect(done.usage).toEqual({ inputTokens: 90, outputTokens: 15, totalTokens: 105 });
  });

  it("a run paused by one executor is resumed by another on the same SQLite file", async () => {
    const sqlitePath = join(tmp, "state.db");
    const first = closing(createExecutor({ checkpointer: "sqlite", sqlitePath, scripts: urgent }));
    const paused = await first.run("support-triage", {
      input: { ticket: "T-9" },
      threadId: "shared",
      context,
    });
    expect(paused.status).toBe("interrupted");
    expect(paused.warnings).toEqual([]);
    const second = closing(
      createExecutor({
        checkpointer: "sqlite",
        sqlitePath,
        scripts: { "support-triage": [] },
      }),
    );
    const done = await second.resume("support-triage", {
      threadId: "shared",
      value: false,
      context,
    });
    expect(done).toMatchObject({
      status: "completed",
      output: { priority: "urgent", notes: ["locked out"] },
    });
  });
});

describe("failures are results", () => {
  const dir = join(tmp, "graphs");
  writeFileSync(join(tmp, "package.json"), "{}");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  writeFileSync(
    join(dir, "strict.yaml"),
    `version: 1
name: strict
state:
  n: { type: integer, reducer: sum, default: 0 }
nodes:
  add: { kind: set, values: { n: 1 } }
edges:
  - { from: START, to: add }
  - from: add
    route:
      - { when: "state.n > 5", to: END }
`,
  );

  it("a failed run keeps its state and says why, with the node", async () => {
    const exec = createExecutor({ dir, checkpointer: "memory" });
    const failed = await exec.run("strict", { input: { n: 2 } });
    expect(failed).toMatchObject({
      status: "failed",
      output: { n: 3 },
      error: {
        code: "route-no-match",
        node: "add",
        message: "no case of the route from `add` matched, and the route has no `default`",
      },
    });
    expect(failed.error!.hint).toMatch(/default: END/);
  });

  it("a refused input is a failed run naming the key", async () => {
    const exec = createExecutor({ dir, checkpointer: "memory" });
    const failed = await exec.run("strict", { input: { n: "x" } });
    expect(failed.error).toMatchObject({ code: "invalid-input", field: "n" });
  });

  it("LangGraph's own errors get a code and a hint", async () => {
    writeFileSync(
      join(dir, "loop.yaml"),
      `version: 1
name: loop
state:
  n: { type: integer, reducer: sum, default: 0 }
nodes:
  add: { kind: set, values: { n: 1 } }
edges:
  - { from: START, to: add }
  - from: add
    route:
      - { when: "state.n < 100", to: add }
      - { default: END }
limits: { recursion: 3 }
`,
    );
    const failed = await createExecutor({ dir, checkpointer: "memory" }).run("loop");
    expect(failed).toMatchObject({
      status: "failed",
      output: { n: 3 },
      error: { code: "recursion-limit" },
    });
    expect(failed.error!.hint).toMatch(/limits\.recursion/);
  });
});

describe("threads", () => {
  it("lists threads with their graph, and deletes one or all with a prefix", async () => {
    const sqlitePath = join(tmp, "threads.db");
    const exec = closing(
      createExecutor({
        checkpointer: "sqlite",
        sqlitePath,
        scripts: {
          "support-triage": [
            ...urgent["support-triage"],
            ...urgent["support-triage"],
            ...urgent["support-triage"],
          ],
        },
      }),
    );
    for (const id of ["user-1:a", "user-1:b", "user-2:a"]) {
      await exec.run("support-triage", { input: { ticket: id }, threadId: id, context });
    }
    const listed = await exec.threads();
    expect(listed.map((t) => t.threadId).sort()).toEqual(["user-1:a", "user-1:b", "user-2:a"]);
    expect(listed[0]!.graph).toMatch(/graphs\/support-triage\.yaml$/);
    expect(await exec.graphOf("user-2:a")).toMatch(/support-triage\.yaml$/);
    expect(await exec.deleteThreads("user-1:")).toEqual(
      expect.arrayContaining(["user-1:a", "user-1:b"]),
    );
    expect((await exec.threads()).map((t) => t.threadId)).toEqual(["user-2:a"]);
    await exec.deleteThread("user-2:a");
    expect(await exec.threads()).toEqual([]);
    await expect(exec.deleteThreads("")).rejects.toThrow(/prefix is required/);
  });
});

describe("resume with LangGraph's Command goto and update", () => {
  const graphs = join(import.meta.dirname, "../fixtures/server/graphs");

  it("writes the update, runs the goto's node, and refuses names the graph lacks", async () => {
    const exec = closing(createExecutor({ dir: graphs, checkpointer: "memory" }));
    const paused = await exec.run("approval", { input: { draft: "Hi" } });
    expect(paused.status).toBe("interrupted");
    const threadId = paused.threadId;

    const unknown = await exec.resume("approval", { threadId, value: true, goto: "nowhere" });
    expect(unknown.error).toMatchObject({ code: "invalid-command", field: "command.goto" });
    const badKey = await exec.resume("approval", {
      threadId,
      value: true,
      update: { drafts: "x" },
    });
    expect(badKey.error).toMatchObject({ code: "invalid-command", field: "command.update.drafts" });
    // Neither wrote anything: the thread still waits at its question, its draft as it was.
    expect((await exec.state(threadId))?.values).toMatchObject({ draft: "Hi", approved: false });

    const done = await exec.resume("approval", {
      threadId,
      value: false,
      update: { draft: "Edited" },
      goto: ["send"],
    });
    expect(done.status).toBe("completed");
    expect(done.output).toMatchObject({ draft: "Edited (sent)", approved: false });
  });
});
