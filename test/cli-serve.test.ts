/**
 * `graphspec serve` and `graphspec dev` as the built CLI runs them: serve refuses to start without
 * authentication unless told `--no-auth`; each prints its URL when ready; SIGTERM lets a run in
 * flight finish and exits 0; dev without keys listens on 127.0.0.1 only.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const BIN = join(import.meta.dirname, "../bin/graphspec.js");
const GRAPHS = join(import.meta.dirname, "fixtures/server-replicas/graphs");
const KEY = "cli-serve-test-key-0123456789";

let dir: string;
const started: ChildProcess[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "graphspec-cli-serve-"));
  writeFileSync(join(dir, "keys.json"), JSON.stringify({ [KEY]: "t1" }));
});
afterAll(async () => {
  for (const p of started) if (p.exitCode === null && p.signalCode === null) p.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const cli = (...args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: "utf8" });

/** Starts the command; resolves with the first line it prints (its URL) and its exit. */
async function launch(...args: string[]) {
  const proc = spawn(process.execPath, [BIN, ...args], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(proc);
  const exited = new Promise<number | null>((r) => proc.once("exit", (code) => r(code)));
  let out = "";
  let err = "";
  proc.stderr!.on("data", (d) => {
    err += d;
  });
  const line = await new Promise<string>((resolve, reject) => {
    proc.stdout!.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve(out.split("\n")[0]!);
    });
    exited.then((code) => reject(new Error(`exited ${code}: ${err}`)));
  });
  return { proc, line, exited };
}

describe("graphspec serve", () => {
  it("refuses to start without --api-keys, --auth or --no-auth", () => {
    const r = cli("serve", GRAPHS, "--port", "0");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--no-auth");
    expect(r.stdout).toBe("");
  });

  it("a key shorter than 16 characters in --api-keys is a usage error, not an internal one", () => {
    writeFileSync(join(dir, "short-keys.json"), JSON.stringify({ short: "t1" }));
    const r = cli("serve", GRAPHS, "--api-keys", "short-keys.json", "--port", "0");
    expect(r.stderr).not.toContain("internal error");
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--api-keys");
    expect(r.stderr).toContain("at least 16 characters");
    expect(r.stdout).toBe("");
  });

  it("prints its URL when ready, serves with --no-auth, and exits 0 on SIGTERM", async () => {
    const s = await launch("serve", GRAPHS, "--no-auth", "--port", "0", "--host", "127.0.0.1");
    expect(s.line).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await (await fetch(`${s.line}/ok`)).json()).toEqual({ ok: true });
    const client = new Client({ apiUrl: s.line, callerOptions: { maxRetries: 0 } });
    expect((await client.assistants.search()).map((a) => a.graph_id)).toContain("three-steps");
    s.proc.kill("SIGTERM");
    expect(await s.exited).toBe(0);
  });

  it("with --api-keys, a request without the key is a 401", async () => {
    const s = await launch(
      "serve",
      GRAPHS,
      "--api-keys",
      "keys.json",
      "--port",
      "0",
      "--host",
      "127.0.0.1",
    );
    expect((await fetch(`${s.line}/threads/search`, { method: "POST", body: "{}" })).status).toBe(
      401,
    );
    const client = new Client({ apiUrl: s.line, apiKey: KEY, callerOptions: { maxRetries: 0 } });
    expect(await client.threads.search()).toEqual([]);
    s.proc.kill("SIGTERM");
    expect(await s.exited).toBe(0);
  });

  it("on SIGTERM lets a run in flight finish before it exits; a restart knows the run", async () => {
    const args = ["serve", GRAPHS, "--no-auth", "--port", "0", "--host", "127.0.0.1"];
    const s = await launch(...args);
    const client = new Client({ apiUrl: s.line, callerOptions: { maxRetries: 0 } });
    const thread = await client.threads.create();
    const gate = join(dir, "gate-sigterm");
    const run = await client.runs.create(thread.thread_id, "file-gated", { input: { gate } });
    for (;;) {
      const st = await client.threads.getState(thread.thread_id);
      if (st.next.includes("hold")) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    s.proc.kill("SIGTERM");
    // It stops taking requests, and waits for the run.
    while (
      await fetch(`${s.line}/ok`).then(
        () => true,
        () => false,
      )
    );
    expect(s.proc.exitCode).toBe(null);
    writeFileSync(gate, "");
    expect(await s.exited).toBe(0);

    const again = await launch(...args);
    const c2 = new Client({ apiUrl: again.line, callerOptions: { maxRetries: 0 } });
    expect((await c2.runs.get(thread.thread_id, run.run_id)).status).toBe("success");
    expect((await c2.threads.getState(thread.thread_id)).values).toMatchObject({ done: true });
    again.proc.kill("SIGTERM");
    expect(await again.exited).toBe(0);
  });
});

describe("graphspec serve's tenant caps", () => {
  it("--max-running-per-tenant 1 --max-queued-per-tenant 1: the third background run is a 429 with retry-after", async () => {
    const s = await launch(
      ...["serve", GRAPHS, "--no-auth", "--port", "0", "--host", "127.0.0.1"],
      ...["--checkpointer", "memory", "--max-running-per-tenant", "1"],
      ...["--max-queued-per-tenant", "1"],
    );
    const gate = join(dir, "gate-caps");
    const create = () =>
      fetch(`${s.line}/runs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ assistant_id: "file-gated", input: { gate } }),
      });
    const first = (await (await create()).json()) as { thread_id: string; run_id: string };
    const client = new Client({ apiUrl: s.line, callerOptions: { maxRetries: 0 } });
    while ((await client.runs.get(first.thread_id, first.run_id)).status !== "running")
      await new Promise((r) => setTimeout(r, 20));
    expect((await create()).status).toBe(200);
    const third = await create();
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toBe("5");
    expect(await third.json()).toMatchObject({ error: "too-many-queued-runs" });
    writeFileSync(gate, "");
    s.proc.kill("SIGTERM");
    expect(await s.exited).toBe(0);
  });

  it("--max-assistants-per-tenant 1 --max-assistant-bytes 2KiB: the second saved assistant is a 403, a big one a 413", async () => {
    const s = await launch(
      ...["serve", GRAPHS, "--no-auth", "--port", "0", "--host", "127.0.0.1"],
      ...["--checkpointer", "memory", "--max-assistants-per-tenant", "1"],
      ...["--max-assistant-bytes", "2KiB"],
    );
    const client = new Client({ apiUrl: s.line, callerOptions: { maxRetries: 0 } });
    const [graph] = await client.assistants.search({ limit: 1 });
    await expect(
      client.assistants.create({ graphId: graph!.graph_id, metadata: { big: "x".repeat(3000) } }),
    ).rejects.toThrow(/413/);
    await client.assistants.create({ graphId: graph!.graph_id, name: "one" });
    await expect(
      client.assistants.create({ graphId: graph!.graph_id, name: "two" }),
    ).rejects.toThrow(/403/);
    s.proc.kill("SIGTERM");
    expect(await s.exited).toBe(0);
  });

  it("a cap that is not a whole number of runs is a usage error", () => {
    const r = cli("serve", GRAPHS, "--no-auth", "--max-running-per-tenant", "0");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--max-running-per-tenant must be a whole number of runs");
  });
});

describe("graphspec dev", () => {
  it("serves on 127.0.0.1 without keys and prints its URL", async () => {
    const s = await launch("dev", GRAPHS, "--port", "0");
    expect(s.line).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const client = new Client({ apiUrl: s.line, callerOptions: { maxRetries: 0 } });
    expect(await client.runs.wait(null, "three-steps", { input: {} })).toMatchObject({ n: 3 });
    s.proc.kill("SIGTERM");
    expect(await s.exited).toBe(0);
  });

  it("refuses another address without keys", () => {
    const r = cli("dev", GRAPHS, "--port", "0", "--host", "0.0.0.0");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("127.0.0.1 only");
  });
});
