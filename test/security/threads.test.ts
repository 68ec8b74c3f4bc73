/**
 * One run per thread, and threads that belong to their graph (docs/security.md "One run per
 * thread"): two CLI processes resuming one paused approval at once, on SQLite and on PostgreSQL —
 * the side-effecting node runs exactly once, the other process is refused with `thread-busy`; two
 * runs on one thread at once; a claim whose holder was killed with SIGKILL does not block the next
 * run; claims inside one process (memory, a checkpointer passed in, two executors on one file);
 * `thread-graph-mismatch` for run and resume; a checkpoint row that points a thread at a spec
 * outside the project is refused, and the module there never runs.
 *
 * The side-effecting node appends to a log, then waits for a gate file the test creates only once
 * one process has ended (or, without claims, once both are inside the node): so the processes
 * overlap for certain, without timing.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, type RunResult } from "../../src/index.js";
import { freshDatabase, serverUrl } from "../support/postgres.js";

const BIN = join(import.meta.dirname, "..", "..", "bin", "graphspec.js");
/** Tests that start several CLI processes: each loads LangChain, slow on a busy machine. */
const CLI_TIMEOUT = 120_000;
const tmp = mkdtempSync(join(tmpdir(), "graphspec-threads-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const project = join(tmp, "project");
const graphs = join(project, "graphs");
const logs = join(project, "logs");
const gates = join(project, "gates");
for (const d of [graphs, logs, gates]) mkdirSync(d, { recursive: true });
writeFileSync(join(project, "package.json"), "{}");

// The side effect: "start" when entered, then wait for the gate, then "sent" with the answer.
writeFileSync(
  join(project, "send.mjs"),
  `import { appendFileSync, existsSync } from "node:fs";
export default async (state) => {
  const log = ${JSON.stringify(logs)} + "/" + state.id + ".log";
  appendFileSync(log, "start " + process.pid + "\\n");
  while (!existsSync(${JSON.stringify(gates)} + "/" + state.id)) await new Promise((r) => setTimeout(r, 10));
  appendFileSync(log, "sent " + JSON.stringify(state.answer) + "\\n");
  return { sent: true };
};
`,
);
const send = "  send: { kind: function, module: ../send.mjs, writes: [sent] }";
const channels = `state:
  id: { type: string, default: "" }
  answer: { type: any, default: null }
  sent: { type: boolean, default: false }`;
writeFileSync(
  join(graphs, "approve.yaml"),
  `version: 1
name: approve
${channels}
nodes:
  ask: { kind: interrupt, payload: { question: "send it?" }, write: answer }
${send}
edges:
  - { from: START, to: ask }
  - { from: ask, to: send }
  - { from: send, to: END }
`,
);
writeFileSync(
  join(graphs, "work.yaml"),
  `version: 1
name: work
${channels}
nodes:
${send}
edges:
  - { from: START, to: send }
  - { from: send, to: END }
`,
);

const log = (id: string) =>
  existsSync(join(logs, `${id}.log`)) ? readFileSync(join(logs, `${id}.log`), "utf8") : "";
const count = (id: string, what: "start" | "sent") =>
  log(id)
    .split("\n")
    .filter((l) => l.startsWith(`${what} `)).length;
const open = (id: string) => writeFileSync(join(gates, id), "");

/** Waits for a condition the test cannot be told about, checking every 20 ms (at most 30 s). */
async function until(what: string, condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 30_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface Cli {
  child: ChildProcess;
  exited: boolean;
  done: Promise<{ status: number | null; stdout: string; stderr: string }>;
}

/** The built CLI in the project, as a running process. */
function cli(env: NodeJS.ProcessEnv, ...args: string[]): Cli {
  const child = spawn(process.execPath, [BIN, ...args, "--json"], {
    cwd: project,
    env: { ...process.env, NO_COLOR: "1", ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => {
    stdout += d;
  });
  child.stderr!.on("data", (d) => {
    stderr += d;
  });
  const run: Cli = {
    child,
    exited: false,
    done: new Promise((resolve) =>
      child.on("close", (status) => {
        run.exited = true;
        resolve({ status, stdout, stderr });
      }),
    ),
  };
  return run;
}

const cliSync = (env: NodeJS.ProcessEnv, ...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args, "--json"], {
    cwd: project,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

/** Two commands started at the same moment; the gate opens once one has ended (or both are inside the node). */
async function race(id: string, env: NodeJS.ProcessEnv, a: string[], b: string[]) {
  const runs = [cli(env, ...a), cli(env, ...b)];
  await until(
    "one process to end, or both to enter the node",
    () => runs.some((r) => r.exited) || count(id, "start") >= 2,
  );
  open(id);
  return Promise.all(runs.map((r) => r.done));
}

const parsed = (r: { stdout: string; stderr: string }): RunResult => {
  try {
    return JSON.parse(r.stdout);
  } catch {
    throw new Error(`not one JSON object on stdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
  }
};

const stores = [
  { name: "SQLite", checkpointer: "sqlite", env: async () => ({}), skip: false },
  {
    name: "PostgreSQL",
    checkpointer: "postgres",
    env: async () => ({ DATABASE_URL: await freshDatabase("threads") }),
    skip: !serverUrl(),
  },
] as const;

describe.each(stores)("one run per thread, across processes ($name)", (store) => {
  let env: NodeJS.ProcessEnv = {};
  const args = ["--checkpointer", store.checkpointer];
  beforeAll(async () => {
    if (!store.skip) env = await store.env();
  });

  it.skipIf(store.skip)(
    "two resumes of one paused approval at once: the node runs once, with the winner's answer; the other is refused with thread-busy",
    async () => {
      for (let round = 0; round < 3; round++) {
        const id = `${store.checkpointer}-resume-${round}`;
        const paused = cliSync(
          env,
          "run",
          "approve",
          "--thread",
          id,
          "--input",
          `{"id":"${id}"}`,
          ...args,
        );
        expect(parsed(paused).status).toBe("interrupted");

        const results = await race(
          id,
          env,
          ["resume", "--thread", id, "--value", '"from A"', ...args],
          ["resume", "--thread", id, "--value", '"from B"', ...args],
        );
        expect(count(id, "sent"), log(id)).toBe(1);
        expect(results.map((r) => r.status).sort()).toEqual([0, 1]);
        const won = results.findIndex((r) => r.status === 0);
        const answer = won === 0 ? "from A" : "from B";
        // The node ran once, with the answer of the process that reports it, not the other's.
        expect(parsed(results[won]!)).toMatchObject({ status: "completed", output: { answer } });
        expect(log(id)).toContain(`sent "${answer}"`);
        expect(parsed(results[1 - won]!)).toMatchObject({
          status: "failed",
          error: { code: "thread-busy", phase: "input" },
        });
      }
    },
    CLI_TIMEOUT,
  );

  it.skipIf(store.skip)(
    "two runs on one thread at once: one runs, the other is refused",
    async () => {
      for (let round = 0; round < 2; round++) {
        const id = `${store.checkpointer}-run-${round}`;
        const input = ["--input", `{"id":"${id}"}`];
        const results = await race(
          id,
          env,
          ["run", "work", "--thread", id, ...input, ...args],
          ["run", "work", "--thread", id, ...input, ...args],
        );
        expect(count(id, "start"), log(id)).toBe(1);
        expect(results.map((r) => r.status).sort()).toEqual([0, 1]);
        const lost = results.find((r) => r.status === 1)!;
        expect(parsed(lost).error).toMatchObject({ code: "thread-busy" });
      }
    },
    CLI_TIMEOUT,
  );

  it.skipIf(store.skip)(
    "a claim dies with its process: after kill -9 of the holder, the next run proceeds",
    async () => {
      const id = `${store.checkpointer}-killed`;
      const holder = cli(env, "run", "work", "--thread", id, "--input", `{"id":"${id}"}`, ...args);
      await until("the run to hold the thread and enter its node", () => count(id, "start") === 1);
      holder.child.kill("SIGKILL");
      await holder.done;

      open(id);
      // (The killed run may not have written a checkpoint yet: a new run, not a resume.)
      const next = cliSync(
        env,
        "run",
        "work",
        "--thread",
        id,
        "--input",
        `{"id":"${id}"}`,
        ...args,
      );
      expect(next.status, next.stdout + next.stderr).toBe(0);
      expect(parsed(next)).toMatchObject({ status: "completed", output: { sent: true } });
      expect(count(id, "sent")).toBe(1);
      if (store.checkpointer === "sqlite") {
        // The killed process's holder file was swept, the new process's removed at its exit.
        expect(readdirSync(join(project, ".graphspec", "state.db-holders"))).toEqual([]);
      }
    },
    CLI_TIMEOUT,
  );
});

describe("one run per thread, inside one process", () => {
  const twoRuns = async (
    first: ReturnType<typeof createExecutor>,
    second: ReturnType<typeof createExecutor>,
    id: string,
  ) => {
    const a = first.run("work", { threadId: id, input: { id } });
    const b = second.run("work", { threadId: id, input: { id } });
    // The refused one ends at once; the other waits in its node for the gate.
    const refused = await Promise.race([a, b]);
    open(id);
    const results = await Promise.all([a, b]);
    return { refused, results };
  };

  it("memory: two runs on one thread at once, one is thread-busy; the thread is free after", async () => {
    const exec = createExecutor({ dir: graphs, checkpointer: "memory" });
    const { refused, results } = await twoRuns(exec, exec, "memory-1");
    expect(refused).toMatchObject({ status: "failed", error: { code: "thread-busy" } });
    expect(results.map((r) => r.status).sort()).toEqual(["completed", "failed"]);
    expect(count("memory-1", "start")).toBe(1);
    // Released in `finally`: the next run on the thread is not refused.
    const again = await exec.run("work", { threadId: "memory-1", input: { id: "memory-1" } });
    expect(again.status).toBe("completed");
    await exec.close();
  });

  it("a checkpointer passed in is claimed inside the process: two executors sharing it exclude each other", async () => {
    const saver = new MemorySaver();
    const one = createExecutor({ dir: graphs, checkpointer: saver });
    const two = createExecutor({ dir: graphs, checkpointer: saver });
    const { refused } = await twoRuns(one, two, "custom-1");
    expect(refused.error).toMatchObject({ code: "thread-busy" });
    expect(count("custom-1", "start")).toBe(1);
  });

  it("SQLite: two executors on one file in one process", async () => {
    const sqlitePath = join(tmp, "in-process.db");
    const one = createExecutor({ dir: graphs, checkpointer: "sqlite", sqlitePath });
    const two = createExecutor({ dir: graphs, checkpointer: "sqlite", sqlitePath });
    try {
      const { refused } = await twoRuns(one, two, "sqlite-1");
      expect(refused.error).toMatchObject({ code: "thread-busy" });
      expect(refused.error!.message).toMatch(/in this process/);
      expect(count("sqlite-1", "start")).toBe(1);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it.skipIf(!serverUrl())("PostgreSQL: two executors, and two runs of one executor", async () => {
    const databaseUrl = await freshDatabase("threads_in_process");
    const one = createExecutor({ dir: graphs, checkpointer: "postgres", databaseUrl });
    const two = createExecutor({ dir: graphs, checkpointer: "postgres", databaseUrl });
    try {
      // One after the other: LangGraph's table set-up is not safe to run twice at once.
      await one.threads();
      await two.threads();
      const across = await twoRuns(one, two, "pg-1");
      expect(across.refused.error).toMatchObject({ code: "thread-busy" });
      // Advisory locks are re-entrant within a session: one executor's two runs are refused too.
      const within = await twoRuns(one, one, "pg-2");
      expect(within.refused.error).toMatchObject({ code: "thread-busy" });
      expect(count("pg-1", "start")).toBe(1);
      expect(count("pg-2", "start")).toBe(1);
      // Given back: both executors can run on the threads again.
      open("pg-3");
      expect((await two.run("work", { threadId: "pg-1", input: { id: "pg-3" } })).status).toBe(
        "completed",
      );
    } finally {
      await one.close();
      await two.close();
    }
  });

  it("a stream on a busy thread ends with thread-busy; a run that fails or is cancelled gives its thread back", async () => {
    const exec = createExecutor({ dir: graphs, checkpointer: "memory" });
    const id = "stream-1";
    const running = exec.run("work", { threadId: id, input: { id } });
    await until("the run to enter its node", () => count(id, "start") === 1);
    const events = [];
    for await (const e of exec.stream("work", { threadId: id, input: { id } })) events.push(e);
    expect(events.map((e) => e.type)).toEqual(["run_start", "failed"]);
    expect(events.at(-1)).toMatchObject({ result: { error: { code: "thread-busy" } } });
    open(id);
    expect((await running).status).toBe("completed");

    // Cancelled: the claim is released with the run.
    const cancel = new AbortController();
    const cancelledId = "stream-2";
    const cancelled = exec.run("work", {
      threadId: cancelledId,
      input: { id: cancelledId },
      signal: cancel.signal,
    });
    await until("the run to enter its node", () => count(cancelledId, "start") === 1);
    cancel.abort();
    expect((await cancelled).error).toMatchObject({ code: "cancelled" });
    open(cancelledId);
    const resumed = await exec.resume("work", { threadId: cancelledId });
    expect(resumed.status).toBe("completed");
    await exec.close();
  });
});

describe("a thread belongs to its graph", () => {
  const sqlitePath = join(project, ".graphspec", "graphs.db");
  const executor = () => createExecutor({ dir: graphs, checkpointer: "sqlite", sqlitePath });

  it("a run with another spec on an existing thread is refused, naming the thread's graph", async () => {
    const exec = executor();
    try {
      const id = "owned-1";
      open(id);
      expect((await exec.run("work", { threadId: id, input: { id } })).status).toBe("completed");
      const other = await exec.run("approve", { threadId: id, input: { id } });
      expect(other).toMatchObject({
        status: "failed",
        error: { code: "thread-graph-mismatch", phase: "input" },
      });
      expect(other.error!.message).toMatch(/belongs to the graph `graphs\/work\.yaml`/);
      expect(other.error!.hint).toMatch(/graphs\/work\.yaml/);
      // Nothing of the thread changed: it still belongs to `work`.
      expect(await exec.graphOf(id)).toBe(join(graphs, "work.yaml"));
      expect(count(id, "start")).toBe(1);
    } finally {
      await exec.close();
    }
  });

  it("resuming a thread of another graph says so", async () => {
    const exec = executor();
    try {
      const id = "owned-2";
      expect((await exec.run("approve", { threadId: id, input: { id } })).status).toBe(
        "interrupted",
      );
      const other = await exec.resume("work", { threadId: id, value: "yes" });
      expect(other.error).toMatchObject({ code: "thread-graph-mismatch" });
      expect(other.error!.hint).toMatch(/graphs\/approve\.yaml/);
      expect(count(id, "start")).toBe(0);
    } finally {
      await exec.close();
    }
  });

  it(
    "the command line says the same, and exits 1",
    () => {
      const id = "owned-3";
      expect(
        parsed(cliSync({}, "run", "approve", "--thread", id, "--input", `{"id":"${id}"}`)).status,
      ).toBe("interrupted");
      const other = cliSync({}, "resume", "work", "--thread", id, "--value", "true");
      expect(other.status).toBe(1);
      expect(parsed(other).error).toMatchObject({ code: "thread-graph-mismatch" });
      expect(count(id, "start")).toBe(0);
      // Without a spec, resume finds the thread's own graph.
      open(id);
      const own = cliSync({}, "resume", "--thread", id, "--value", "true");
      expect(parsed(own)).toMatchObject({ status: "completed", output: { answer: true } });
    },
    CLI_TIMEOUT,
  );
});

describe("a spec a thread names in its checkpoints is loaded only from inside the project", () => {
  const outside = join(tmp, "outside");
  const marker = join(tmp, "outside-module-ran");
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, "package.json"), "{}");
  // The module writes the marker as soon as it is imported (compiling the spec imports it).
  writeFileSync(
    join(outside, "evil.mjs"),
    `import { writeFileSync } from "node:fs";
writeFileSync(${JSON.stringify(marker)}, "imported");
export default async () => ({ sent: true });
`,
  );
  writeFileSync(
    join(outside, "evil.yaml"),
    `version: 1
name: evil
${channels}
nodes:
  send: { kind: function, module: ./evil.mjs, writes: [sent] }
edges:
  - { from: START, to: send }
  - { from: send, to: END }
`,
  );
  symlinkSync(join(outside, "evil.yaml"), join(graphs, "linked.yaml"));

  const statePath = join(project, ".graphspec", "state.db");
  /** Points every checkpoint of a thread at `graph`, as a hostile row would. */
  const pointAt = (threadId: string, graph: string) => {
    const { db } = SqliteSaver.fromConnString(statePath);
    db.prepare(
      "UPDATE checkpoints SET metadata = CAST(json_set(CAST(metadata AS TEXT), '$.graphspec_graph', ?) AS BLOB) WHERE thread_id = ?",
    ).run(graph, threadId);
    db.close();
  };

  it.each([
    ["a spec outside the project", join(outside, "evil.yaml"), /is outside the project/],
    [
      "a symbolic link in the project to a spec outside",
      join(graphs, "linked.yaml"),
      /symbolic link/,
    ],
    ["a module instead of a spec", join(project, "send.mjs"), /is not a spec file/],
    ["a relative path", "../outside/evil.yaml", /not an absolute path/],
  ])(
    "%s: threads show, resume and the executor refuse it; the module never runs",
    async (_, graph, why) => {
      const id = `pointed-${Math.random().toString(36).slice(2)}`;
      const writer = createExecutor({ dir: graphs, checkpointer: "sqlite", sqlitePath: statePath });
      try {
        const paused = await writer.run("approve", { threadId: id, input: { id } });
        expect(paused.status).toBe("interrupted");
      } finally {
        await writer.close();
      }
      pointAt(id, graph);

      const show = cliSync({}, "threads", "show", id);
      expect(show.status).toBe(1);
      expect(show.stderr).toMatch(why);
      expect(show.stderr).toMatch(/graph-outside-project|is not loaded/);

      const resume = cliSync({}, "resume", "--thread", id, "--value", "true");
      expect(resume.status).toBe(1);
      expect(parsed(resume).error).toMatchObject({ code: "graph-outside-project" });

      const exec = createExecutor({ dir: graphs, checkpointer: "sqlite", sqlitePath: statePath });
      try {
        expect(await exec.graphOf(id)).toBeUndefined();
        expect((await exec.inspect(id))?.error).toMatchObject({ code: "graph-outside-project" });
        expect(await exec.history(id)).toBeUndefined();
      } finally {
        await exec.close();
      }
      expect(existsSync(marker)).toBe(false);
    },
    CLI_TIMEOUT,
  );
});
