/**
 * One run per thread, in-process (docs/security.md "One run per thread"), on every store the
 * executor claims threads in — memory, SQLite, PostgreSQL: the refusal a second run gets (its
 * exact error and result), the thread given back when a run completes, pauses, fails or is
 * refused, a claim left by a killed process taken over, a claim held by another process or
 * replica refused, and the PostgreSQL claim session lost and opened again.
 *
 * The quick companion of test/security/threads.test.ts (CLI processes racing): these run in the
 * test's own process, where a mutation test's mutants live (docs/testing.md#mutation-testing).
 * A node waits for a gate file the test creates: runs overlap for certain, without timing.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { createExecutor, type Executor, type RunResult } from "graphspec";
import { afterAll, describe, expect, it } from "vitest";
import { freshDatabase, serverUrl } from "../support/postgres.js";
// Loaded here, as the file loads, not first inside a test (the executor loads a store's code when
// it opens it): their module-level code (the holder-name pattern, the lock key) then counts for
// every test of the file in a mutation run, not only for the first that happened to load them.
import "../../src/run/thread-claims-postgres.js";
import "../../src/run/thread-claims-sqlite.js";

const BIN = join(import.meta.dirname, "..", "..", "bin", "graphspec.js");
const tmp = mkdtempSync(join(tmpdir(), "graphspec-claims-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const project = join(tmp, "project");
const graphs = join(project, "graphs");
const logs = join(project, "logs");
const gates = join(project, "gates");
for (const d of [graphs, logs, gates]) mkdirSync(d, { recursive: true });
writeFileSync(join(project, "package.json"), "{}");

// Logs "start", waits for the gate, then fails when asked to, else logs "sent".
writeFileSync(
  join(project, "send.mjs"),
  `import { appendFileSync, existsSync } from "node:fs";
export default async (state) => {
  const log = ${JSON.stringify(logs)} + "/" + state.id + ".log";
  appendFileSync(log, "start " + process.pid + "\\n");
  while (!existsSync(${JSON.stringify(gates)} + "/" + state.id)) await new Promise((r) => setTimeout(r, 10));
  if (state.fail) throw new Error("asked to fail");
  appendFileSync(log, "sent\\n");
  return { sent: true };
};
`,
);
const channels = `state:
  id: { type: string, default: "" }
  fail: { type: boolean, default: false }
  answer: { type: any, default: null }
  sent: { type: boolean, default: false }`;
const send = "  send: { kind: function, module: ../send.mjs, writes: [sent] }";
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

const starts = (id: string) => {
  const file = join(logs, `${id}.log`);
  return existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .filter((l) => l.startsWith("start")).length
    : 0;
};
const open = (id: string) => writeFileSync(join(gates, id), "");

/** A plain `pg` client, connected: another replica's, or a database administrator's. */
async function pgClient(connectionString: string) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString });
  await client.connect();
  return client;
}

/**
 * Ends the sessions holding advisory locks on `admin`'s database, as an administrator (or a
 * failover) would, and says of each whether it ended. Of that database only: pg_locks lists the
 * whole server's, and the suite's other files share the server.
 */
async function endLockHolders(admin: { query(sql: string): Promise<{ rows: unknown[] }> }) {
  const { rows } = await admin.query(
    "SELECT pg_terminate_backend(pid) AS ended FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
  );
  return rows;
}

/**
 * Waits for what the test cannot be told about, checking every 20 ms (at most 60 s) — and fails at
 * once when `running` (the run that should get there) ends first: a run that never enters its node
 * is a failure now, not a wait.
 */
async function until(
  what: string,
  condition: () => boolean,
  running: Promise<unknown>,
): Promise<void> {
  let ended: { value: unknown } | undefined;
  running.then(
    (value) => {
      ended = { value };
    },
    (e) => {
      ended = { value: e };
    },
  );
  // By the clock (a loaded machine's timers run late), and before the test's own 60 s timeout:
  // a stall here names what it waited for.
  const deadline = Date.now() + 40_000;
  while (!condition()) {
    if (ended) throw new Error(`ended before ${what}: ${JSON.stringify(ended.value)}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A run that should be refused: its answer — or a failure as soon as it enters the node of thread
 * `id` (the `n`th start there), where it would wait for a gate that opens only after it.
 */
async function refusal<T>(id: string, n: number, run: Promise<T>): Promise<T> {
  let done = false;
  const entered = (async () => {
    while (!done) {
      if (starts(id) >= n)
        throw new Error(`not refused: run ${n} on thread ${id} entered its node`);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  try {
    return await Promise.race([run, entered as Promise<never>]);
  } finally {
    done = true;
  }
}

/**
 * The files under `prefix` this process holds open, sorted — read from Linux's /proc/self/fd
 * (elsewhere the answer is `expected`, unchecked).
 */
function openFiles(prefix: string, expected: string[] = []): string[] {
  if (!existsSync("/proc/self/fd")) return expected;
  const found: string[] = [];
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      const target = readlinkSync(join("/proc/self/fd", fd));
      if (target.startsWith(prefix)) found.push(target);
    } catch {
      // The descriptor readdir itself used, closed by now.
    }
  }
  return found.sort();
}

const ISO = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z";
const HINT =
  "wait for that run to finish (`graphspec threads show` tells where the thread stands), then try again";

/** The whole result of a run refused because its thread is busy: nothing ran, nothing was read. */
const busyResult = (threadId: string, message: string | RegExp): RunResult =>
  ({
    status: "failed",
    output: {},
    threadId,
    checkpointId: undefined,
    interrupts: [],
    next: [],
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    warnings: [],
    error: {
      code: "thread-busy",
      phase: "input",
      message: typeof message === "string" ? message : expect.stringMatching(message),
      hint: HINT,
    },
  }) as RunResult;

const busyMessage = (id: string, holder?: string) =>
  `thread \`${id}\` is busy: another run ${holder ? `(${holder}) ` : ""}is running or resuming it`;
/** The message naming a holder `where` (no pattern characters in it), then the claim's time. */
const busyPattern = (id: string, where: string) =>
  new RegExp(
    `^thread \`${id}\` is busy: another run \\(${where}${ISO}\\) is running or resuming it$`,
  );

/**
 * Runs `work` on thread `id` with `first` and, while it waits in its node, the same with `second`:
 * the second is refused. The gate opens then, and the first completes.
 */
async function holdAndTry(first: Executor, second: Executor, id: string): Promise<RunResult> {
  const running = first.run("work", { threadId: id, input: { id } });
  await until("the first run to enter its node", () => starts(id) === 1, running);
  const refused = await refusal(id, 2, second.run("work", { threadId: id, input: { id } }));
  open(id);
  expect(await running).toMatchObject({ status: "completed", output: { sent: true } });
  expect(starts(id)).toBe(1);
  return refused;
}

/** The thread is given back after a run that completes, pauses, fails and is refused. */
async function givenBackAfterEveryEnd(exec: Executor, tag: string): Promise<void> {
  // Fails in its node: the next run on the thread is not refused.
  const failing = `${tag}-fails`;
  open(failing);
  const failed = await exec.run("work", { threadId: failing, input: { id: failing, fail: true } });
  expect(failed).toMatchObject({ status: "failed", error: { code: "node-error" } });
  const after = await exec.run("work", { threadId: failing, input: { id: failing, fail: false } });
  expect(after).toMatchObject({ status: "completed", output: { sent: true } });

  // Pauses at an interrupt: the resume is not refused.
  const pausing = `${tag}-pauses`;
  open(pausing);
  expect(await exec.run("approve", { threadId: pausing, input: { id: pausing } })).toMatchObject({
    status: "interrupted",
  });
  // Refused for another graph (thread-graph-mismatch), with the thread claimed meanwhile.
  expect(await exec.run("work", { threadId: pausing, input: { id: pausing } })).toMatchObject({
    status: "failed",
    error: { code: "thread-graph-mismatch" },
  });
  expect(await exec.resume("approve", { threadId: pausing, value: "yes" })).toMatchObject({
    status: "completed",
    output: { answer: "yes", sent: true },
  });
}

describe("memory: claims inside the process", () => {
  it("a second run on a busy thread is refused with thread-busy, and ran nothing", async () => {
    const exec = createExecutor({ dir: graphs, checkpointer: "memory" });
    try {
      const refused = await holdAndTry(exec, exec, "mem-busy");
      expect(refused).toEqual(busyResult("mem-busy", busyMessage("mem-busy", "in this process")));
      // Given back when the run completed.
      open("mem-busy");
      expect(
        (await exec.run("work", { threadId: "mem-busy", input: { id: "mem-busy" } })).status,
      ).toBe("completed");
    } finally {
      await exec.close();
    }
  });

  it("two executors of one process, each with its own memory, claim apart; other threads stay free", async () => {
    const one = createExecutor({ dir: graphs, checkpointer: "memory" });
    const two = createExecutor({ dir: graphs, checkpointer: "memory" });
    const running = one.run("work", { threadId: "mem-apart", input: { id: "mem-apart" } });
    await until("the run to enter its node", () => starts("mem-apart") === 1, running);
    // Another memory is another store: its thread of the same id is another thread.
    const other = two.run("work", { threadId: "mem-apart", input: { id: "mem-apart" } });
    await until("the second run to enter its node", () => starts("mem-apart") === 2, other);
    // The same executor, another thread: not refused.
    open("mem-other");
    expect(
      (await one.run("work", { threadId: "mem-other", input: { id: "mem-other" } })).status,
    ).toBe("completed");
    open("mem-apart");
    expect((await running).status).toBe("completed");
    expect((await other).status).toBe("completed");
    await one.close();
    await two.close();
  });

  it("the thread is given back after a run that fails, pauses, or is refused for another graph", async () => {
    const exec = createExecutor({ dir: graphs, checkpointer: "memory" });
    await givenBackAfterEveryEnd(exec, "mem");
    await exec.close();
  });

  it("updateState on a busy thread is refused the same way", async () => {
    const exec = createExecutor({ dir: graphs, checkpointer: "memory" });
    const id = "mem-update";
    const seeded = await exec.run("approve", { threadId: id, input: { id } });
    expect(seeded.status).toBe("interrupted");
    const running = exec.resume("approve", { threadId: id, value: "go" });
    await until("the resume to enter its node", () => starts(id) === 1, running);
    const refused = await refusal(id, 2, exec.updateState(id, { answer: "late" }));
    expect(refused).toEqual(busyResult(id, busyMessage(id, "in this process")));
    open(id);
    expect(await running).toMatchObject({ status: "completed", output: { answer: "go" } });
    await exec.close();
  });
});

describe("a checkpointer passed in: claims inside the process, per checkpointer object", () => {
  it("two executors sharing one exclude each other; one with another object does not", async () => {
    const saver = new MemorySaver();
    const one = createExecutor({ dir: graphs, checkpointer: saver });
    const two = createExecutor({ dir: graphs, checkpointer: saver });
    const refused = await holdAndTry(one, two, "passed-in");
    expect(refused).toEqual(busyResult("passed-in", busyMessage("passed-in", "in this process")));
    await one.close();
    await two.close();
  });
});

describe("reading a thread goes by the graph it stored", () => {
  const sqlitePath = join(tmp, "owners.db");

  it("inspect: no thread, the thread's own graph, another graph, a graph stored outside the project", async () => {
    const exec = createExecutor({ dir: graphs, checkpointer: "sqlite", sqlitePath });
    try {
      expect(await exec.inspect("never-ran")).toBeUndefined();
      const id = "owned";
      expect((await exec.run("approve", { threadId: id, input: { id } })).status).toBe(
        "interrupted",
      );
      expect(await exec.inspect(id)).toMatchObject({ status: "interrupted", threadId: id });
      expect(await exec.inspect(id, "approve")).toMatchObject({ status: "interrupted" });
      const other = await exec.inspect(id, "work");
      expect(other).toMatchObject({
        status: "failed",
        output: {},
        checkpointId: undefined,
        error: { code: "thread-graph-mismatch", phase: "input" },
      });
      // A row pointed at a spec outside the project, as a hostile store would.
      const { db } = SqliteSaver.fromConnString(sqlitePath);
      db.prepare(
        "UPDATE checkpoints SET metadata = CAST(json_set(CAST(metadata AS TEXT), '$.graphspec_graph', ?) AS BLOB) WHERE thread_id = ?",
      ).run(join(tmp, "elsewhere.yaml"), id);
      db.close();
      expect(await exec.inspect(id)).toMatchObject({
        status: "failed",
        output: {},
        error: { code: "graph-outside-project", phase: "input" },
      });
    } finally {
      await exec.close();
    }
  });
});

describe("SQLite: claims in the checkpoint file", () => {
  const sqlitePath = join(tmp, "claims.db");

  it("two executors on one file: the second run is refused, naming this process and since when", async () => {
    const one = createExecutor({ dir: graphs, checkpointer: "sqlite", sqlitePath });
    const two = createExecutor({ dir: graphs, checkpointer: "sqlite", sqlitePath });
    try {
      const refused = await holdAndTry(one, two, "sq-busy");
      expect(refused).toEqual(
        busyResult("sq-busy", busyPattern("sq-busy", "in this process, since ")),
      );
      // Given back: the other executor runs on the thread now.
      open("sq-busy");
      expect(
        (await two.run("work", { threadId: "sq-busy", input: { id: "sq-busy" } })).status,
      ).toBe("completed");
    } finally {
      await one.close();
      await two.close();
    }
  });

  it("the thread is given back after a run that fails, pauses, or is refused for another graph", async () => {
    const exec = createExecutor({ dir: graphs, checkpointer: "sqlite", sqlitePath });
    try {
      await givenBackAfterEveryEnd(exec, "sq");
    } finally {
      await exec.close();
    }
  });

  it("a run going when its executor closes ends first, and gives its thread back", async () => {
    const exec = createExecutor({ dir: graphs, checkpointer: "sqlite", sqlitePath });
    const id = "sq-closed";
    const running = exec.run("work", { threadId: id, input: { id } });
    await until("the run to enter its node", () => starts(id) === 1, running);
    // close() waits for the run in flight (executor-close.test.ts), which holds its thread.
    const closing = exec.close();
    const next = createExecutor({ dir: graphs, checkpointer: "sqlite", sqlitePath });
    expect(await next.updateState(id, { sent: false }, { graph: "work" })).toMatchObject({
      status: "failed",
      error: { code: "thread-busy" },
    });
    open(id);
    await closing;
    expect(await running).toMatchObject({ status: "completed" });
    try {
      const again = await next.run("work", { threadId: id, input: { id } });
      expect(again).toMatchObject({ status: "completed", output: { sent: true } });
    } finally {
      await next.close();
    }
  });

  it("holder files left by dead processes are swept; files of other names are left alone", async () => {
    const dir = join(tmp, "sweep");
    mkdirSync(dir, { recursive: true });
    const path = join(dir, "state.db");
    mkdirSync(`${path}-holders`, { recursive: true });
    // What a process killed with SIGKILL leaves: its holder file, no longer locked.
    const dead = "0b8c1f4e-6a0d-4c1e-9d2a-5f3e7b9c1a2d";
    writeFileSync(join(`${path}-holders`, dead), "");
    writeFileSync(join(`${path}-holders`, "notes.txt"), "not a holder");
    // Empty files with names that are nearly a holder's: not this code's, never probed or removed.
    const strangers = [`${dead}.bak`, `x${dead}`, dead.toUpperCase(), dead.replaceAll("-", "")];
    // And each of its five groups one hex digit longer, or shorter, than a uuid's.
    const groups = dead.split("-");
    for (const [i, group] of groups.entries()) {
      for (const changed of [`${group}0`, group.slice(1)]) {
        strangers.push(groups.map((g, j) => (j === i ? changed : g)).join("-"));
      }
    }
    for (const name of strangers) writeFileSync(join(`${path}-holders`, name), "");
    const exec = createExecutor({ dir: graphs, checkpointer: "sqlite", sqlitePath: path });
    try {
      open("sq-sweep");
      expect(
        (await exec.run("work", { threadId: "sq-sweep", input: { id: "sq-sweep" } })).status,
      ).toBe("completed");
      const left = readdirSync(`${path}-holders`).sort();
      // The dead holder's file is gone; this process's own (a fresh uuid) and the stranger stay.
      expect(left).not.toContain(dead);
      expect(left).toContain("notes.txt");
      for (const name of strangers) expect(left).toContain(name);
      const own = left.filter((n) => /^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/.test(n));
      expect(own).toHaveLength(1);
      // The dead file's probe was closed: of the folder, only this process's own lock stays open.
      const mine = [join(`${path}-holders`, own[0] as string)];
      expect(openFiles(`${path}-holders`, mine)).toEqual(mine);
    } finally {
      await exec.close();
    }
  });

  it("claim rows naming no holder file of this code's, or one since removed, do not keep a thread busy", async () => {
    const path = join(tmp, "foreign.db");
    const exec = createExecutor({ dir: graphs, checkpointer: "sqlite", sqlitePath: path });
    try {
      open("sq-first");
      // The first claim makes the claims table.
      expect(
        (await exec.run("work", { threadId: "sq-first", input: { id: "sq-first" } })).status,
      ).toBe("completed");
      // Rows another tool (or a hand) wrote: a holder name this code never writes, and a holder
      // file that is gone (its process swept, or the folder cleaned).
      const { db } = SqliteSaver.fromConnString(path);
      const row = db.prepare(
        "INSERT INTO graphspec_thread_claims (thread_id, holder, claim, pid, host, claimed_at) VALUES (?, ?, 'c', 1, 'elsewhere', '2026-01-01T00:00:00.000Z')",
      );
      row.run("sq-foreign", "../state.db");
      row.run("sq-vanished", "0b8c1f4e-6a0d-4c1e-9d2a-000000000000");
      db.close();
      for (const id of ["sq-foreign", "sq-vanished"]) {
        open(id);
        expect(await exec.run("work", { threadId: id, input: { id } })).toMatchObject({
          status: "completed",
          output: { sent: true },
        });
      }
      // Nothing was made or removed in the holders folder for them: the files there are this
      // process's own, and the database stays.
      expect(existsSync(path)).toBe(true);
      expect(readdirSync(`${path}-holders`)).toHaveLength(1);
    } finally {
      await exec.close();
    }
  });

  it("a claim held by another process is refused naming its pid and host; once that process is killed, the thread is taken over", async () => {
    // The CLI's own file in its folder (.graphspec/state.db).
    const path = join(project, ".graphspec", "state.db");
    const id = "sq-cross";
    const holder: ChildProcess = spawn(
      process.execPath,
      [
        BIN,
        "run",
        "work",
        "--thread",
        id,
        "--input",
        JSON.stringify({ id }),
        "--checkpointer",
        "sqlite",
        "--json",
      ],
      { cwd: project, stdio: "ignore" },
    );
    const ended = new Promise((r) => holder.on("close", r));
    try {
      await until("the other process to hold the thread", () => starts(id) === 1, ended);
      // The other process's holder file, the only one yet (this process's comes with its claim).
      const theirs = readdirSync(`${path}-holders`).filter((n) => !n.startsWith("."));
      expect(theirs).toHaveLength(1);
      const exec = createExecutor({ dir: graphs, checkpointer: "sqlite", sqlitePath: path });
      try {
        const refused = await refusal(id, 2, exec.run("work", { threadId: id, input: { id } }));
        expect(refused).toEqual(
          busyResult(id, busyPattern(id, `pid ${holder.pid} on ${hostname()}, since `)),
        );
        holder.kill("SIGKILL");
        await ended;
        // Its claim row is still there, its holder file no longer locked: taken over.
        open(id);
        const next = await exec.run("work", { threadId: id, input: { id } });
        expect(next).toMatchObject({ status: "completed", output: { sent: true } });
        expect(readdirSync(`${path}-holders`)).not.toContain(theirs[0]);
      } finally {
        await exec.close();
      }
    } finally {
      holder.kill("SIGKILL");
    }
  }, 120_000);

  it("at exit, this process's holder files go and their locks are let go; the next claim takes a new one", async () => {
    // The exit handlers holder files are dropped by (registered as the first is taken; a package
    // loaded twice in one process has one per copy).
    const atExit = () => process.listeners("exit").filter((l) => l.name === "dropOwnHolders");
    // Two databases, so two holder folders: one handler drops both.
    const paths = ["one", "two"].map((d) => join(tmp, "exit", d, "state.db"));
    const execs = paths.map((sqlitePath) =>
      createExecutor({ dir: graphs, checkpointer: "sqlite", sqlitePath }),
    );
    try {
      const handlers: unknown[][] = [];
      for (const [i, exec] of execs.entries()) {
        const id = `sq-exit-${i}`;
        open(id);
        expect((await exec.run("work", { threadId: id, input: { id } })).status).toBe("completed");
        handlers.push(atExit());
      }
      expect(handlers[0]?.length).toBeGreaterThan(0);
      expect(handlers[1]).toEqual(handlers[0]);
      const holders = paths.map((p) => `${p}-holders`);
      const before = holders.map((h) => readdirSync(h));
      for (const names of before) expect(names).toHaveLength(1);
      // What the process's exit runs.
      for (const drop of atExit()) (drop as () => void)();
      for (const h of holders) {
        expect(readdirSync(h)).toEqual([]);
        expect(openFiles(h)).toEqual([]);
      }
      // The process goes on: its next claim takes a holder file again.
      open("sq-exit-after");
      const again = await execs[0]?.run("work", {
        threadId: "sq-exit-after",
        input: { id: "sq-exit-after" },
      });
      expect(again?.status).toBe("completed");
      const after = readdirSync(holders[0] as string);
      expect(after).toHaveLength(1);
      expect(after).not.toEqual(before[0]);
    } finally {
      for (const exec of execs) await exec.close();
    }
  });

  it("a thread this process holds is refused to another process, naming this process", async () => {
    const path = join(project, ".graphspec", "state.db");
    const id = "sq-ours";
    const exec = createExecutor({ dir: graphs, checkpointer: "sqlite", sqlitePath: path });
    try {
      const running = exec.run("work", { threadId: id, input: { id } });
      await until("the run to enter its node", () => starts(id) === 1, running);
      const other = spawn(
        process.execPath,
        [
          BIN,
          "run",
          "work",
          "--thread",
          id,
          "--input",
          JSON.stringify({ id }),
          "--checkpointer",
          "sqlite",
          "--json",
        ],
        { cwd: project, stdio: ["ignore", "pipe", "ignore"] },
      );
      let out = "";
      other.stdout?.on("data", (d) => {
        out += d;
      });
      const ended = new Promise((r) => other.on("close", r));
      try {
        await refusal(id, 2, ended);
      } finally {
        other.kill("SIGKILL");
      }
      expect(JSON.parse(out)).toMatchObject({
        status: "failed",
        error: {
          code: "thread-busy",
          message: expect.stringMatching(
            busyPattern(id, `pid ${process.pid} on ${hostname()}, since `),
          ),
        },
      });
      open(id);
      expect(await running).toMatchObject({ status: "completed", output: { sent: true } });
    } finally {
      await exec.close();
    }
  }, 120_000);
});

/** The advisory lock key of a thread, as every replica must compute it (thread-claims-postgres.ts). */
const advisoryKey = (threadId: string) =>
  createHash("sha256")
    .update(`graphspec thread\0${threadId}`)
    .digest()
    .readBigInt64BE(0)
    .toString();

describe.skipIf(!serverUrl())("PostgreSQL: advisory locks every replica sees", () => {
  it("a second run of one executor, and a run of another, are refused; the thread is given back", async () => {
    const databaseUrl = await freshDatabase("claims_busy");
    const one = createExecutor({ dir: graphs, checkpointer: "postgres", databaseUrl });
    const two = createExecutor({ dir: graphs, checkpointer: "postgres", databaseUrl });
    try {
      await one.threads();
      await two.threads();
      const within = await holdAndTry(one, one, "pg-within");
      expect(within).toEqual(busyResult("pg-within", busyMessage("pg-within", "in this process")));
      // Another session (another replica): the server says busy, and does not say whose.
      const across = await holdAndTry(one, two, "pg-across");
      expect(across).toEqual(busyResult("pg-across", busyMessage("pg-across")));
      open("pg-across");
      expect(
        (await two.run("work", { threadId: "pg-across", input: { id: "pg-across" } })).status,
      ).toBe("completed");
      // Two threads of one executor at once, the first given back while the second runs: it is
      // free for the other executor then (both claims are on the executor's one session).
      const [a, b] = ["pg-first", "pg-second"];
      const runA = one.run("work", { threadId: a, input: { id: a } });
      await until("the first run to enter its node", () => starts(a) === 1, runA);
      const runB = one.run("work", { threadId: b, input: { id: b } });
      await until("the second run to enter its node", () => starts(b) === 1, runB);
      open(a);
      expect((await runA).status).toBe("completed");
      open(`${a}-again`);
      expect((await two.run("work", { threadId: a, input: { id: `${a}-again` } })).status).toBe(
        "completed",
      );
      open(b);
      expect((await runB).status).toBe("completed");
      await givenBackAfterEveryEnd(one, "pg");
    } finally {
      await one.close();
      await two.close();
    }
  });

  it("a replica holding the thread's advisory lock makes the run refused; released, the run proceeds", async () => {
    const databaseUrl = await freshDatabase("claims_replica");
    const replica = await pgClient(databaseUrl);
    const exec = createExecutor({ dir: graphs, checkpointer: "postgres", databaseUrl });
    try {
      const id = "pg-replica";
      await replica.query("SELECT pg_advisory_lock($1::bigint)", [advisoryKey(id)]);
      const refused = await refusal(id, 1, exec.run("work", { threadId: id, input: { id } }));
      expect(refused).toEqual(busyResult(id, busyMessage(id)));
      // The refusal left no claim of ours behind: released by the replica, the thread is free.
      await replica.query("SELECT pg_advisory_unlock($1::bigint)", [advisoryKey(id)]);
      open(id);
      expect((await exec.run("work", { threadId: id, input: { id } })).status).toBe("completed");
      // And the claim is this thread's key, not another's: a replica holding a run's own key sees it.
      const watched = "pg-watched";
      const running = exec.run("work", { threadId: watched, input: { id: watched } });
      await until("the run to enter its node", () => starts(watched) === 1, running);
      const { rows } = await replica.query("SELECT pg_try_advisory_lock($1::bigint) AS taken", [
        advisoryKey(watched),
      ]);
      expect(rows[0].taken).toBe(false);
      open(watched);
      expect((await running).status).toBe("completed");
      const after = await replica.query("SELECT pg_try_advisory_lock($1::bigint) AS taken", [
        advisoryKey(watched),
      ]);
      expect(after.rows[0].taken).toBe(true);
    } finally {
      await exec.close();
      await replica.end();
    }
  });

  it("the claim session killed by the server: its locks are gone, and the next claim opens another session", async () => {
    const databaseUrl = await freshDatabase("claims_session");
    const admin = await pgClient(databaseUrl);
    const exec = createExecutor({ dir: graphs, checkpointer: "postgres", databaseUrl });
    const other = createExecutor({ dir: graphs, checkpointer: "postgres", databaseUrl });
    try {
      await exec.threads();
      await other.threads();
      const id = "pg-killed";
      const running = exec.run("work", { threadId: id, input: { id } });
      await until("the run to enter its node", () => starts(id) === 1, running);
      // The session holding the advisory lock, ended as an administrator (or a failover) would.
      expect(await endLockHolders(admin)).toEqual([{ ended: true }]);
      open(id);
      await running;
      // The lock went with the session; the broken session is not used again.
      open("pg-next");
      expect(
        (await exec.run("work", { threadId: "pg-next", input: { id: "pg-next" } })).status,
      ).toBe("completed");
      const again = "pg-again";
      const holding = exec.run("work", { threadId: again, input: { id: again } });
      await until("the run to enter its node", () => starts(again) === 1, holding);
      expect(
        await refusal(again, 2, other.run("work", { threadId: again, input: { id: again } })),
      ).toEqual(busyResult(again, busyMessage(again)));
      open(again);
      expect((await holding).status).toBe("completed");
    } finally {
      await exec.close();
      await other.close();
      await admin.end();
    }
  });

  it("a claim asked as the server ends the claim session, before it says so, is asked of a new session", async () => {
    // The query sent on the ended session fails before the session's \`error\` event: a run that
    // starts right then was failed with "Connection terminated unexpectedly". Five times over, for
    // the orders in which the end and the query can meet.
    const databaseUrl = await freshDatabase("claims_race");
    const admin = await pgClient(databaseUrl);
    const exec = createExecutor({ dir: graphs, checkpointer: "postgres", databaseUrl });
    try {
      await exec.threads();
      for (let round = 0; round < 5; round++) {
        const id = `pg-race-${round}`;
        const running = exec.run("work", { threadId: id, input: { id } });
        await until("the run to enter its node", () => starts(id) === 1, running);
        const next = `pg-race-next-${round}`;
        open(next);
        expect(await endLockHolders(admin)).toEqual([{ ended: true }]);
        const started = exec.run("work", { threadId: next, input: { id: next } });
        open(id);
        expect((await running).status).toBe("completed");
        expect((await started).status).toBe("completed");
      }
    } finally {
      await exec.close();
      await admin.end();
    }
  });

  it("a claim session that cannot be opened fails that run only; the next claim opens one", async () => {
    const databaseUrl = await freshDatabase("claims_connect");
    const admin = await pgClient(serverUrl());
    const exec = createExecutor({ dir: graphs, checkpointer: "postgres", databaseUrl });
    try {
      // The store's tables and pool are up; the claim session is opened at the first claim.
      await exec.threads();
      await admin.query('ALTER DATABASE "claims_connect" ALLOW_CONNECTIONS false');
      const id = "pg-connect";
      open(id);
      // The run is refused as any unusable store is (the CLI prints message and hint), and ran nothing.
      await expect(exec.run("work", { threadId: id, input: { id } })).rejects.toMatchObject({
        name: "CheckpointerError",
        message: expect.stringMatching(
          /^cannot use PostgreSQL at 127\.0\.0\.1:\d+\/claims_connect: database "claims_connect" is not currently accepting connections$/,
        ),
        hint: "check that the server runs and DATABASE_URL (host, port, user, password, database) is right",
      });
      expect(starts(id)).toBe(0);
      await admin.query('ALTER DATABASE "claims_connect" ALLOW_CONNECTIONS true');
      expect(await exec.run("work", { threadId: id, input: { id } })).toMatchObject({
        status: "completed",
        output: { sent: true },
      });
    } finally {
      await exec.close();
      await admin.end();
    }
  });

  it("closing an executor gives back the threads it holds", async () => {
    const databaseUrl = await freshDatabase("claims_close");
    // One that never claimed a thread (no claim session yet) closes cleanly.
    const idle = createExecutor({ dir: graphs, checkpointer: "postgres", databaseUrl });
    await idle.threads();
    await expect(idle.close()).resolves.toBeUndefined();
    const one = createExecutor({ dir: graphs, checkpointer: "postgres", databaseUrl });
    const two = createExecutor({ dir: graphs, checkpointer: "postgres", databaseUrl });
    try {
      await one.threads();
      await two.threads();
      const id = "pg-close";
      const running = one.run("work", { threadId: id, input: { id } });
      await until("the run to enter its node", () => starts(id) === 1, running);
      // close() waits for the run in flight, which holds its thread meanwhile.
      const closing = one.close();
      expect(await two.updateState(id, { answer: "x" })).toMatchObject({
        status: "failed",
        error: { code: "thread-busy" },
      });
      open(id);
      await closing;
      expect(await running).toMatchObject({ status: "completed" });
      // Closed, its claim session is gone: the thread is free.
      expect(await two.updateState(id, { answer: "x" })).toEqual({
        checkpointId: expect.any(String),
      });
    } finally {
      await two.close();
    }
  });
});
