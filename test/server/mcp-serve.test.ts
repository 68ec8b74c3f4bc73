/**
 * `graphspec serve` and `graphspec dev` with a graph whose tools come from an MCP server, driven by
 * the official LangGraph SDK: the stdio server is started on the first run, kept for the next, and
 * gone when the server shuts down (SIGTERM) — no orphan process.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, ROOT, scratchDir } from "../support/cli.js";

const SERVER = join(ROOT, "test", "support", "mcp-test-server.mjs");
const dir = scratchDir("mcp-serve");
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));
const pidFile = join(dir, "pid");
writeFileSync(
  join(dir, "graphs", "echo.yaml"),
  `version: 1
name: echo
state:
  out: { type: string }
mcp_servers:
  t:
    command: node
    args: [${JSON.stringify(SERVER)}]
    env: { MCP_TEST_PID_FILE: ${JSON.stringify(pidFile)} }
    tools: [echo]
nodes:
  call: { kind: tool, tool: echo, args: { text: served }, write: { out: "\${{ string(result) }}" } }
edges:
  - { from: START, to: call }
  - { from: call, to: END }
`,
);

const started: ChildProcess[] = [];
afterAll(() => {
  for (const p of started) if (p.exitCode === null && p.signalCode === null) p.kill("SIGKILL");
});

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

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

describe.each([
  ["serve", ["--no-auth"]],
  ["dev", []],
])("graphspec %s with an MCP server", (command, flags) => {
  it("runs the server's tool for SDK runs on one server process, and ends it on SIGTERM", async () => {
    const s = await launch(
      command,
      "graphs",
      ...flags,
      "--port",
      "0",
      "--host",
      "127.0.0.1",
      "--checkpointer",
      "memory",
    );
    const client = new Client({ apiUrl: s.line, callerOptions: { maxRetries: 0 } });
    const first = (await client.runs.wait(null, "echo", { input: {} })) as { out?: string };
    expect(first.out).toBe("echo: served");
    const pid = Number(readFileSync(pidFile, "utf8"));
    const second = (await client.runs.wait(null, "echo", { input: {} })) as { out?: string };
    expect(second.out).toBe("echo: served");
    expect(Number(readFileSync(pidFile, "utf8"))).toBe(pid);
    expect(alive(pid)).toBe(true);
    s.proc.kill("SIGTERM");
    expect(await s.exited).toBe(0);
    expect(alive(pid)).toBe(false);
  });
});
