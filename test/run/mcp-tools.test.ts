/**
 * MCP servers as tool sources (docs/spec.md "MCP servers"), through the package entry's executor
 * and real servers: test/support/mcp-test-server.mjs over stdio and streamable HTTP, and the
 * published reference server (@modelcontextprotocol/server-everything), all driven through
 * LangChain's MCP adapters. The model is a script; everything else is real.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createExecutor } from "../../src/index.js";
import { closeAfterAll } from "../support/close-after-all.js";

const ROOT = join(import.meta.dirname, "..", "..");
const SERVER = join(ROOT, "test", "support", "mcp-test-server.mjs");
const EVERYTHING = join(ROOT, "node_modules", ".bin", "mcp-server-everything");

const tmp = mkdtempSync(join(tmpdir(), "graphspec-mcp-"));
writeFileSync(join(tmp, "package.json"), "{}");
mkdirSync(join(tmp, "graphs"));
const servers: ChildProcess[] = [];
afterAll(() => {
  for (const s of servers) s.kill();
  rmSync(tmp, { recursive: true, force: true });
});
const opened = closeAfterAll();

function graph(name: string, yaml: string): string {
  writeFileSync(join(tmp, "graphs", `${name}.yaml`), `version: 1\nname: ${name}\n${yaml}`);
  return name;
}

const executor = (scripts: Record<string, unknown[]> = {}) =>
  opened(
    createExecutor({
      dir: join(tmp, "graphs"),
      checkpointer: "memory",
      scripts: scripts as never,
    }),
  );

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The test server over streamable HTTP on 127.0.0.1 (on `port`, or any), and its URL. */
async function httpServer(port = 0): Promise<{ url: string; port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, [SERVER, "--http", "--port", String(port)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  servers.push(child);
  const found = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (b) => {
      out += b;
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once("exit", (code) => reject(new Error(`the test server exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${found}/mcp`, port: found, child };
}

const stopped = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) resolve();
    else {
      child.once("exit", () => resolve());
      child.kill();
    }
  });

/** A graph that calls one tool with `args` (a `tool` node) and writes its result to `out`. */
const callOnce = (servers: string, tool: string, args: string, tools = "") => `
state:
  out: { type: string }
  step: { type: string }
${servers}
${tools}
nodes:
  before: { kind: set, values: { step: "before" } }
  call:
    kind: tool
    tool: ${tool}
    args: ${args}
    write: { out: "\${{ string(result) }}" }
edges:
  - { from: START, to: before }
  - { from: before, to: call }
  - { from: call, to: END }
`;

const stdioServer = (extra = "") => `
mcp_servers:
  t:
    command: node
    args: [${JSON.stringify(SERVER)}]
    tools: [echo, fail, slow, crash, add]
${extra}`;

describe("an MCP server's tools in nodes", () => {
  it("runs a server's tools in a tools node, and a tool's isError comes back as a tool message", async () => {
    const name = graph(
      "stdio-tools",
      `
state:
  messages: { type: messages }
models:
  default: { model: "scripted:stdio-tools" }
${stdioServer()}
nodes:
  ask: { kind: llm, tools: [echo, fail] }
  act: { kind: tools }   # every tool, the servers' too
edges:
  - { from: START, to: ask }
  - { from: ask, to: act }
  - { from: act, to: END }
`,
    );
    const exec = executor({
      "stdio-tools": [
        {
          tool_calls: [
            { name: "echo", args: { text: "hi" } },
            { name: "fail", args: {} },
          ],
        },
      ],
    });
    const r = await exec.run(name, { input: { messages: [{ role: "user", content: "go" }] } });
    expect(r.error).toBeUndefined();
    const tools = (r.output.messages as { type: string; content: string; status?: string }[])
      .filter((m) => m.type === "tool")
      .map((m) => [m.content, m.status ?? "success"]);
    expect(tools[0]).toEqual(["echo: hi", "success"]);
    expect(tools[1]![0]).toContain("the notes store is locked");
    expect(tools[1]![1]).toBe("error");
  });

  it("fails the run with tool-timeout when a tools node's call is slower than timeout_ms", async () => {
    const name = graph(
      "tools-timeout",
      `
state:
  messages: { type: messages }
models:
  default: { model: "scripted:tools-timeout" }
${stdioServer("    timeout_ms: 100")}
nodes:
  ask: { kind: llm, tools: [slow] }
  act: { kind: tools, tools: [slow] }
edges:
  - { from: START, to: ask }
  - { from: ask, to: act }
  - { from: act, to: END }
`,
    );
    const exec = executor({
      "tools-timeout": [{ tool_calls: [{ name: "slow", args: { ms: 20000 } }] }],
    });
    const r = await exec.run(name, { input: { messages: [{ role: "user", content: "go" }] } });
    expect(r.error).toMatchObject({ code: "tool-timeout", node: "act" });
  });

  it("renames a server's tool and binds its arguments from the context in a tool node", async () => {
    const name = graph(
      "stdio-bound",
      `context:
  word: { type: string, required: true }
${callOnce(
  stdioServer(),
  "shout",
  "{}",
  `tools:
  shout: { mcp: t, tool: echo, description: Shouts, bind: { text: "\${{ context.word }}" } }`,
)}`,
    );
    const r = await executor().run(name, { input: {}, context: { word: "bound" } });
    expect(r.error).toBeUndefined();
    expect(r.output.out).toBe("echo: bound");
  });

  it("keeps one server process per executor across runs and graphs, and ends it when the executor closes", async () => {
    const pidFile = join(tmp, "pid-shared");
    const env = `    env: { MCP_TEST_PID_FILE: ${JSON.stringify(pidFile)} }`;
    const a = graph("shared-a", callOnce(stdioServer(env), "echo", "{ text: a }"));
    const b = graph("shared-b", callOnce(stdioServer(env), "echo", "{ text: b }"));
    const exec = createExecutor({ dir: join(tmp, "graphs"), checkpointer: "memory" });
    expect((await exec.run(a, { input: {} })).output.out).toBe("echo: a");
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect((await exec.run(b, { input: {} })).output.out).toBe("echo: b");
    expect((await exec.run(a, { input: {} })).output.out).toBe("echo: a");
    expect(Number(readFileSync(pidFile, "utf8"))).toBe(pid);
    expect(alive(pid)).toBe(true);
    await exec.close();
    expect(alive(pid)).toBe(false);
  });

  it("fails the run with mcp-unavailable when the server dies during a call, keeps the checkpoint, and reconnects on the next call", async () => {
    const pidFile = join(tmp, "pid-crash");
    const servers = stdioServer(`    env: { MCP_TEST_PID_FILE: ${JSON.stringify(pidFile)} }`);
    const crash = graph("crash", callOnce(servers, "crash", "{}"));
    const echo = graph("after-crash", callOnce(servers, "echo", "{ text: back }"));
    const exec = executor();
    const r = await exec.run(crash, { input: {}, threadId: "crashed" });
    expect(r.status).toBe("failed");
    expect(r.error).toMatchObject({ code: "mcp-unavailable", node: "call" });
    expect(r.error!.message).toContain("MCP server `t` (stdio: node");
    expect(r.error!.hint).toContain("last checkpoint is kept");
    // The step before the failed one is kept.
    expect(r.output.step).toBe("before");
    const first = Number(readFileSync(pidFile, "utf8"));
    const again = await exec.run(echo, { input: {} });
    expect(again.error).toBeUndefined();
    expect(again.output.out).toBe("echo: back");
    expect(Number(readFileSync(pidFile, "utf8"))).not.toBe(first);
  });

  it("fails a call slower than timeout_ms with tool-timeout", async () => {
    const name = graph(
      "slow",
      callOnce(stdioServer("    timeout_ms: 100"), "slow", "{ ms: 20000 }"),
    );
    const r = await executor().run(name, { input: {} });
    expect(r.error).toMatchObject({ code: "tool-timeout", node: "call" });
    expect(r.error!.message).toContain(
      "tool `slow` of MCP server `t` did not answer within 100 ms",
    );
    expect(r.output.step).toBe("before");
  });

  it("refuses a tool name two servers give; a `tools:` entry of that name is the spec's own choice", async () => {
    const two = (extra: string) =>
      callOnce(
        `mcp_servers:\n  a: { command: node, args: [${JSON.stringify(SERVER)}], tools: all }\n  b: { command: node, args: [${JSON.stringify(SERVER)}], tools: all }`,
        "echo",
        "{ text: hi }",
        extra,
      );
    const failure = await executor()
      .run(graph("twice", two("")), { input: {} })
      .catch((e: Error) => e);
    expect((failure as Error).name).toBe("CompileError");
    expect((failure as Error).message).toContain(
      "MCP servers `a` and `b` both give a tool `echo`, which node `call` names: it could call either [name-collision]",
    );
    // Renamed on one side: each server's `echo` has its own name, and the spec's entry wins.
    const chosen = await executor().run(
      graph("twice-chosen", two("tools:\n  echo: { mcp: b, tool: echo }")),
      { input: {} },
    );
    expect(chosen.status).toBe("completed");
    expect(JSON.stringify(chosen.output)).toContain("hi");
  });

  it("fails the run (not the graph) when its server does not start, naming the server and its transport", async () => {
    const name = graph(
      "no-server",
      callOnce(
        `mcp_servers:\n  t: { command: node, args: [${JSON.stringify(join(tmp, "missing.mjs"))}], tools: [echo] }`,
        "echo",
        "{ text: x }",
      ),
    );
    const r = await executor().run(name, { input: {} });
    expect(r.status).toBe("failed");
    expect(r.error).toMatchObject({ code: "mcp-unavailable", phase: "run" });
    expect(r.error!.message).toMatch(
      /^MCP server `t` \(stdio: node .*missing\.mjs\) is unavailable: /,
    );
    expect(r.error!.hint).toMatch(/starts and speaks MCP on stdio/);
  });
});

describe("an agent with an MCP server's tools", () => {
  const agent = (name: string, extra = "") =>
    graph(
      name,
      `
state:
  messages: { type: messages }
models:
  default: { model: "scripted:${name}" }
${stdioServer()}
nodes:
  work: { kind: agent, tools: [echo, crash, add]${extra} }
edges:
  - { from: START, to: work }
  - { from: work, to: END }
`,
    );
  const ask = { input: { messages: [{ role: "user", content: "go" }] } };

  it("fails the run with mcp-unavailable when the server dies during the agent's call, not a message for the model", async () => {
    const name = agent("agent-crash");
    const exec = executor({
      "agent-crash": [{ tool_calls: [{ name: "crash", args: {} }] }, { text: "never" }],
    });
    const r = await exec.run(name, ask);
    expect(r.error).toMatchObject({ code: "mcp-unavailable", node: "work" });
  });

  it("holds an MCP tool to the run's allowlist (policy_denied) and to approvals", async () => {
    const denied = agent("agent-policy");
    const exec = executor({
      "agent-policy": [{ tool_calls: [{ name: "echo", args: { text: "x" } }] }, { text: "ok" }],
      "agent-approve": [{ tool_calls: [{ name: "add", args: { a: 1, b: 2 } }] }, { text: "done" }],
    });
    const r = await exec.run(denied, { ...ask, allowedTools: ["add"] });
    const tool = (r.output.messages as { type: string; artifact?: { errorCode?: string } }[]).find(
      (m) => m.type === "tool",
    );
    expect(tool?.artifact?.errorCode).toBe("policy_denied");

    const approved = agent("agent-approve", ", approve: [add]");
    const paused = await exec.run(approved, { ...ask, threadId: "approve-add" });
    expect(paused.status).toBe("interrupted");
    const done = await exec.resume(approved, {
      threadId: "approve-add",
      value: { decisions: [{ type: "approve" }] },
    });
    expect(done.error).toBeUndefined();
    const answer = (done.output.messages as { type: string; content: string }[]).find(
      (m) => m.type === "tool",
    );
    expect(answer?.content).toBe("3");
  });
});

describe("a server over streamable HTTP", () => {
  it("reconnects to a restarted server, and a server that is down fails the run with mcp-unavailable", async () => {
    const first = await httpServer();
    const name = graph(
      "http-echo",
      callOnce(`mcp_servers:\n  h: { url: "${first.url}", tools: [echo] }`, "echo", "{ text: hi }"),
    );
    const exec = executor();
    expect((await exec.run(name, { input: {} })).output.out).toBe("echo: hi");
    // Restarted at the same address: the old session is unknown there (404), a new one is opened.
    await stopped(first.child);
    const second = await httpServer(first.port);
    const restarted = await exec.run(name, { input: {} });
    expect(restarted.error).toBeUndefined();
    expect(restarted.output.out).toBe("echo: hi");
    // Down: refused, with the URL and the hint; the step before is kept.
    await stopped(second.child);
    const down = await exec.run(name, { input: {} });
    expect(down.error).toMatchObject({ code: "mcp-unavailable", node: "call" });
    expect(down.error!.message).toContain(`MCP server \`h\` (http: ${first.url}) is unavailable`);
    expect(down.output.step).toBe("before");
    // Back up: the next run reconnects.
    await httpServer(first.port);
    expect((await exec.run(name, { input: {} })).output.out).toBe("echo: hi");
  });

  it("sends headers from env and the run's context, and masks them as secrets", async () => {
    const { url } = await httpServer();
    const name = graph(
      "http-whoami",
      `context:
  token: { type: string, required: true, secret: true }
${callOnce(
  `mcp_servers:\n  h:\n    url: "${url}"\n    headers: { authorization: "Bearer \${{ context.token }}" }\n    tools: [whoami]`,
  "whoami",
  "{}",
)}`,
    );
    const exec = executor();
    const r = await exec.run(name, { input: {}, context: { token: "tenant-one-token" } });
    expect(r.error).toBeUndefined();
    // The server saw the header; the run's output shows it masked.
    expect(r.output.out).toBe("Bearer ***");
  });
});

it("masks what a server's env reads from the environment, whatever the variable's name", async () => {
  const name = graph(
    "stdio-env",
    callOnce(
      stdioServer('    env: { MCP_TEST_SECRET: "${{ env.NOTES_HANDLE }}" }').replace(
        "add]",
        "add, whoami]",
      ),
      "whoami",
      "{}",
    ),
  );
  const exec = opened(
    createExecutor({
      dir: join(tmp, "graphs"),
      checkpointer: "memory",
      env: { NOTES_HANDLE: "plain-looking-value" },
    }),
  );
  const r = await exec.run(name, { input: {} });
  expect(r.error).toBeUndefined();
  expect(r.output.out).toBe("***");
});

describe("the published reference server", () => {
  it("runs server-everything's tools (all of them taken) in a tools node", async () => {
    const name = graph(
      "everything",
      `
state:
  messages: { type: messages }
models:
  default: { model: "scripted:everything" }
mcp_servers:
  ref: { command: ${JSON.stringify(EVERYTHING)}, tools: all }
nodes:
  ask: { kind: llm, tools: [echo, get-sum] }
  act: { kind: tools, tools: [echo, get-sum] }
edges:
  - { from: START, to: ask }
  - { from: ask, to: act }
  - { from: act, to: END }
`,
    );
    const exec = executor({
      everything: [
        {
          tool_calls: [
            { name: "echo", args: { message: "ping" } },
            { name: "get-sum", args: { a: 2, b: 3 } },
          ],
        },
      ],
    });
    const r = await exec.run(name, { input: { messages: [{ role: "user", content: "go" }] } });
    expect(r.error).toBeUndefined();
    const tools = (r.output.messages as { type: string; content: string }[])
      .filter((m) => m.type === "tool")
      .map((m) => m.content);
    expect(tools).toEqual(["Echo: ping", "The sum of 2 and 3 is 5."]);
  });
});
