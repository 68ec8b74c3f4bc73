/**
 * Threads tell the truth: `resume --value null` answers null; a thread whose last step failed
 * shows `failed` with its error (code, message, node) through `threads show` and `inspect`;
 * deleting a thread that does not exist says so; `threads list` and `threads delete --prefix`
 * read no checkpoint, so one broken thread cannot make them fail for every thread (SQLite and
 * PostgreSQL); a deadline beyond a timer's 24.8 days does not fire at once.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { createExecutor } from "../../src/index.js";
import { freshDatabase, serverUrl } from "../support/postgres.js";

const BIN = join(import.meta.dirname, "..", "..", "bin", "graphspec.js");
const dir = mkdtempSync(join(tmpdir(), "graphspec-threads-truth-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const graphs = join(dir, "graphs");
mkdirSync(graphs);
writeFileSync(join(dir, "package.json"), "{}");
const sent = join(dir, "sent.log");
const fixed = join(dir, "fixed");

writeFileSync(
  join(dir, "send.mjs"),
  `import { appendFileSync } from "node:fs";
export default async (state) => {
  appendFileSync(${JSON.stringify(sent)}, JSON.stringify(state.answer) + "\\n");
  return { sent: true };
};
`,
);
writeFileSync(
  join(graphs, "approve.yaml"),
  `version: 1
name: approve
state:
  answer: { type: any, default: "unset" }
  sent: { type: boolean, default: false }
nodes:
  ask: { kind: interrupt, payload: { question: "send it?" }, write: answer }
  send: { kind: function, module: ../send.mjs, writes: [sent] }
edges:
  - { from: START, to: ask }
  - { from: ask, to: send }
  - { from: send, to: END }
`,
);
// Fails until the file \`fixed\` exists; `sneaky` writes a channel it did not declare.
writeFileSync(
  join(dir, "flaky.mjs"),
  `import { existsSync } from "node:fs";
export default async () => {
  if (!existsSync(${JSON.stringify(fixed)})) throw new Error("the mail server is down");
  return { n: 1 };
};
export const sneaky = async () => ({ n: 2, other: true });
`,
);
writeFileSync(
  join(graphs, "flaky.yaml"),
  `version: 1
name: flaky
state:
  n: { type: integer, default: 0 }
  other: { type: boolean, default: false }
nodes:
  first: { kind: set, values: { n: 0 } }
  mail: { kind: function, module: ../flaky.mjs, writes: [n] }
  sneaky: { kind: function, module: ../flaky.mjs, export: sneaky, writes: [n] }
edges:
  - { from: START, to: first }
  - from: first
    route:
      - { when: "state.other", to: sneaky }
      - { default: mail }
  - { from: mail, to: END }
  - { from: sneaky, to: END }
`,
);
writeFileSync(
  join(dir, "slow.mjs"),
  "export default async () => { await new Promise((r) => setTimeout(r, 50)); return { n: 1 }; };\n",
);
writeFileSync(
  join(graphs, "slow.yaml"),
  `version: 1
name: slow
state:
  n: { type: integer, default: 0 }
nodes:
  step: { kind: function, module: ../slow.mjs, writes: [n] }
edges:
  - { from: START, to: step }
  - { from: step, to: END }
`,
);

const graphspec = (...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};
const answers = () => (existsSync(sent) ? readFileSync(sent, "utf8").trim().split("\n") : []);
const sqlitePath = join(dir, ".graphspec", "state.db");
const executor = () => createExecutor({ dir: graphs, checkpointer: "sqlite", sqlitePath });

describe("null is an answer", () => {
  it("`resume --value null` answers the pending interrupt with null (with --json and with --progress)", () => {
    rmSync(sent, { force: true });
    for (const [id, mode] of [
      ["null-1", "--json"],
      ["null-2", "--progress"],
    ] as const) {
      expect(graphspec("run", "approve", "--thread", id, "--json").status).toBe(0);
      const resumed = graphspec("resume", "--thread", id, "--value", "null", mode);
      expect(resumed.status, resumed.stdout + resumed.stderr).toBe(0);
      if (mode === "--json") {
        expect(JSON.parse(resumed.stdout)).toMatchObject({
          status: "completed",
          output: { answer: null, sent: true },
        });
      } else expect(resumed.stdout).toMatch(/completed on thread null-2/);
    }
    expect(answers()).toEqual(["null", "null"]);
  });

  it("through the executor: resume with value null, and a stream with resume null", async () => {
    rmSync(sent, { force: true });
    const exec = executor();
    try {
      await exec.run("approve", { threadId: "null-3" });
      expect(await exec.resume("approve", { threadId: "null-3", value: null })).toMatchObject({
        status: "completed",
        output: { answer: null },
      });
      await exec.run("approve", { threadId: "null-4" });
      const events = [];
      for await (const e of exec.stream("approve", { threadId: "null-4", resume: null }))
        events.push(e);
      expect(events.at(-1)).toMatchObject({
        type: "completed",
        result: { output: { answer: null } },
      });
      // Without an answer, the paused run goes on from its checkpoint: it pauses again.
      await exec.run("approve", { threadId: "null-5" });
      expect(await exec.resume("approve", { threadId: "null-5" })).toMatchObject({
        status: "interrupted",
        output: { answer: "unset" },
      });
    } finally {
      await exec.close();
    }
    expect(answers()).toEqual(["null", "null"]);
  });
});

describe("a thread whose last step failed shows `failed`, with its error", () => {
  it("through `threads show` and `inspect`, until a resume gets past the step", async () => {
    rmSync(fixed, { force: true });
    const run = graphspec("run", "flaky", "--thread", "failed-1", "--json");
    expect(run.status).toBe(1);
    const error = { code: "node-error", message: "the mail server is down", node: "mail" };
    expect(JSON.parse(run.stdout).error).toMatchObject(error);

    const show = graphspec("threads", "show", "failed-1");
    expect(show.status).toBe(0);
    expect(show.stdout).toMatch(/^failed-1: failed, next: mail$/m);
    expect(show.stdout).toMatch(/node `mail` failed \[node-error\]: the mail server is down/);
    const json = JSON.parse(graphspec("threads", "show", "failed-1", "--json").stdout);
    expect(json).toMatchObject({ status: "failed", error, next: ["mail"] });

    const exec = executor();
    try {
      expect(await exec.inspect("failed-1")).toMatchObject({ status: "failed", error });
      writeFileSync(fixed, "");
      expect((await exec.resume("flaky", { threadId: "failed-1" })).status).toBe("completed");
      expect(await exec.inspect("failed-1")).toMatchObject({ status: "completed" });
      expect((await exec.inspect("failed-1"))?.error).toBeUndefined();
    } finally {
      await exec.close();
    }
  });

  it("keeps graphspec's own code (not just LangGraph's message), with its hint", async () => {
    const exec = executor();
    try {
      const failed = await exec.run("flaky", { threadId: "failed-2", input: { other: true } });
      expect(failed.error).toMatchObject({ code: "invalid-write", node: "sneaky" });
    } finally {
      await exec.close();
    }
    // Read back by another executor (another process would be the same): the whole error.
    const later = executor();
    try {
      const failed = await later.inspect("failed-2");
      expect(failed).toMatchObject({
        status: "failed",
        error: { code: "invalid-write", node: "sneaky", phase: "node" },
      });
      expect(failed!.error!.hint).toBeTruthy();
    } finally {
      await later.close();
    }
  });
});

describe("deleting threads", () => {
  it("a thread that does not exist: the command says so and exits 1; the executor returns false", async () => {
    const del = graphspec("threads", "delete", "no-such-thread");
    expect(del.status).toBe(1);
    expect(del.stderr).toMatch(/there is no thread `no-such-thread`: nothing was deleted/);
    expect(del.stdout).toBe("");
    const json = graphspec("threads", "delete", "no-such-thread", "--json");
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({ deleted: [] });

    const exec = executor();
    try {
      await exec.run("approve", { threadId: "to-delete" });
      expect(await exec.deleteThread("to-delete")).toBe(true);
      expect(await exec.deleteThread("to-delete")).toBe(false);
    } finally {
      await exec.close();
    }
    expect(graphspec("run", "approve", "--thread", "cli-delete", "--json").status).toBe(0);
    expect(graphspec("threads", "delete", "cli-delete")).toMatchObject({
      status: 0,
      stdout: "deleted cli-delete\n",
    });
  });
});

describe("one broken thread does not break listing for every thread", () => {
  const listAndDelete = async (exec: ReturnType<typeof createExecutor>) => {
    const listed = await exec.threads();
    const ids = listed.map((t) => t.threadId);
    expect(ids).toEqual(expect.arrayContaining(["list-ok", "list-broken"]));
    const ok = listed.find((t) => t.threadId === "list-ok")!;
    expect(ok.graph).toBe(join(graphs, "approve.yaml"));
    expect(Number.isNaN(Date.parse(ok.updatedAt))).toBe(false);
    // Newest first: list-broken was written after list-ok.
    expect(ids.indexOf("list-broken")).toBeLessThan(ids.indexOf("list-ok"));
    expect(await exec.deleteThreads("list-")).toEqual(
      expect.arrayContaining(["list-ok", "list-broken"]),
    );
    expect((await exec.threads()).map((t) => t.threadId)).not.toContain("list-ok");
  };

  it("SQLite: a checkpoint that cannot be read, and metadata that is not JSON (the CLI too)", async () => {
    const exec = executor();
    try {
      await exec.run("approve", { threadId: "list-ok" });
      await exec.run("approve", { threadId: "list-badmeta" });
      await exec.run("approve", { threadId: "list-broken" });
    } finally {
      await exec.close();
    }
    const { db } = SqliteSaver.fromConnString(sqlitePath);
    db.prepare("UPDATE checkpoints SET checkpoint = X'00ff' WHERE thread_id = 'list-broken'").run();
    db.prepare("UPDATE checkpoints SET metadata = X'7b7b' WHERE thread_id = 'list-badmeta'").run();
    db.close();

    const list = graphspec("threads", "list");
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^list-broken {2}graphs\/approve\.yaml {2}\d{4}-/m);
    expect(list.stdout).toMatch(/^list-ok {2}graphs\/approve\.yaml/m);
    // Its graph cannot be read: listed without one.
    expect(list.stdout).toMatch(/^list-badmeta {2}\? {2}\d{4}-/m);
    const second = executor();
    try {
      await listAndDelete(second);
    } finally {
      await second.close();
    }
  });

  it.skipIf(!serverUrl())("PostgreSQL: a state blob that cannot be read", async () => {
    const databaseUrl = await freshDatabase("threads_listing");
    const exec = createExecutor({ dir: graphs, checkpointer: "postgres", databaseUrl });
    try {
      await exec.run("approve", { threadId: "list-ok" });
      await exec.run("approve", { threadId: "list-broken" });
      const { default: pg } = await import("pg");
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(
        "UPDATE checkpoint_blobs SET type = 'no-such-type' WHERE thread_id = 'list-broken'",
      );
      await client.end();
      await listAndDelete(exec);
    } finally {
      await exec.close();
    }
  });
});

describe("a deadline beyond a timer's reach", () => {
  it("597 hours (past 2^31 ms) does not stop the run at once", async () => {
    const exec = createExecutor({ dir: graphs, checkpointer: "memory" });
    const far = await exec.run("slow", { deadline: 597 * 3_600_000 });
    expect(far.error).toBeUndefined();
    expect(far.status).toBe("completed");
    const farDate = await exec.run("slow", { deadline: new Date(Date.now() + 40 * 86_400_000) });
    expect(farDate.status).toBe("completed");
    const cli = graphspec(
      "run",
      "slow",
      "--deadline",
      "597h",
      "--checkpointer",
      "memory",
      "--json",
    );
    expect(cli.status, cli.stdout + cli.stderr).toBe(0);
    expect(cli.stderr).not.toMatch(/TimeoutOverflowWarning/);
  });
});
