/**
 * The PostgreSQL checkpointer, on a real server (test/support/postgres-server.ts): tables made on
 * first use, a run paused by one process and resumed by another, threads listed and deleted, and
 * a database that cannot be used reported without its password.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor } from "../../src/run/executor.js";
import { freshDatabase, serverUrl } from "../support/postgres.js";

const BIN = join(import.meta.dirname, "..", "..", "bin", "graphspec.js");
const dir = mkdtempSync(join(tmpdir(), "graphspec-pg-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));
writeFileSync(
  join(dir, "graphs", "approve.yaml"),
  `version: 1
name: approve
state:
  draft: { type: string, default: "" }
  sent: { type: boolean, default: false }
context:
  user_id: { type: string, required: true }
nodes:
  ask:
    kind: interrupt
    payload: { question: "Send \${{ state.draft }} for \${{ context.user_id }}?" }
    schema: { type: boolean }
    write: sent
edges:
  - { from: START, to: ask }
  - { from: ask, to: END }
`,
);

let databaseUrl = "";
beforeAll(async () => {
  if (serverUrl()) databaseUrl = await freshDatabase("executor");
});

const graphspec = (...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args, "--checkpointer", "postgres", "--json"], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: databaseUrl, NO_COLOR: "1" },
  });
  return {
    status: r.status,
    result: r.stdout ? JSON.parse(r.stdout) : undefined,
    stderr: r.stderr,
  };
};

describe.skipIf(!serverUrl())("the postgres checkpointer", () => {
  const executor = () =>
    createExecutor({ dir: join(dir, "graphs"), checkpointer: "postgres", databaseUrl });

  it("makes its tables on first use; a run paused by one executor is resumed by another", async () => {
    const first = executor();
    const paused = await first.run("approve", {
      input: { draft: "hi" },
      threadId: "pg-1",
      context: { user_id: "u-1" },
    });
    expect(paused).toMatchObject({
      status: "interrupted",
      interrupts: [{ node: "ask", value: { question: "Send hi for u-1?" } }],
      warnings: [],
    });
    await first.close();

    const second = executor();
    try {
      expect(await second.graphOf("pg-1")).toBe(join(dir, "graphs", "approve.yaml"));
      const done = await second.resume("approve", { threadId: "pg-1", value: true });
      expect(done).toMatchObject({ status: "completed", output: { draft: "hi", sent: true } });
    } finally {
      await second.close();
    }
  });

  it("lists threads, and deletes one or all with a prefix", async () => {
    const exec = executor();
    try {
      for (const id of ["user-7:a", "user-7:b", "user-8:a"])
        await exec.run("approve", { threadId: id, context: { user_id: "u" } });
      const ids = (await exec.threads()).map((t) => t.threadId);
      expect(ids).toEqual(expect.arrayContaining(["user-7:a", "user-7:b", "user-8:a"]));
      expect((await exec.deleteThreads("user-7:")).sort()).toEqual(["user-7:a", "user-7:b"]);
      const left = (await exec.threads()).map((t) => t.threadId);
      expect(left).toContain("user-8:a");
      expect(left).not.toContain("user-7:a");
    } finally {
      await exec.close();
    }
  });

  it("two CLI processes: a run paused in one is resumed by the other, the context kept", () => {
    const run = graphspec("run", "approve", "--thread", "cli-1", "--context", '{"user_id":"u-5"}');
    expect(run.status).toBe(0);
    expect(run.result).toMatchObject({ status: "interrupted", threadId: "cli-1" });
    const resumed = graphspec("resume", "--thread", "cli-1", "--value", "true");
    expect(resumed.stderr).toBe("");
    expect(resumed.status).toBe(0);
    expect(resumed.result).toMatchObject({ status: "completed", output: { sent: true } });
  });

  it("a server that does not answer is an error naming host and database, never the password", async () => {
    const url = new URL(serverUrl());
    url.port = "1"; // nothing listens there
    url.password = "s3cret-pass";
    url.pathname = "/nowhere";
    const exec = createExecutor({
      dir: join(dir, "graphs"),
      checkpointer: "postgres",
      databaseUrl: url.toString(),
    });
    const failure = await exec.run("approve", { context: { user_id: "u" } }).catch((e) => e);
    expect(failure).toMatchObject({ name: "CheckpointerError" });
    expect(failure.message).toMatch(/cannot use PostgreSQL at 127\.0\.0\.1:1\/nowhere/);
    expect(failure.message).not.toContain("s3cret-pass");
    expect(failure.hint).toMatch(/DATABASE_URL/);

    const cli = spawnSync(
      process.execPath,
      [BIN, "threads", "list", "--checkpointer", "postgres"],
      {
        cwd: dir,
        encoding: "utf8",
        env: { ...process.env, DATABASE_URL: url.toString() },
      },
    );
    expect(cli.status).toBe(2);
    expect(cli.stderr).toMatch(/cannot use PostgreSQL at 127\.0\.0\.1:1\/nowhere/);
    expect(cli.stderr).toMatch(/hint: check that the server runs/);
    expect(cli.stderr).not.toContain("s3cret-pass");
    expect(cli.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});

describe("without DATABASE_URL", () => {
  it("the postgres checkpointer says what to set", async () => {
    const exec = createExecutor({ dir: join(dir, "graphs"), checkpointer: "postgres", env: {} });
    const saved = process.env.DATABASE_URL;
    delete process.env.DATABASE_URL;
    try {
      const failure = await exec.run("approve", { context: { user_id: "u" } }).catch((e) => e);
      expect(failure).toMatchObject({ name: "CheckpointerError" });
      expect(failure.message).toMatch(/DATABASE_URL is not set/);
    } finally {
      if (saved !== undefined) process.env.DATABASE_URL = saved;
    }
  });
});
