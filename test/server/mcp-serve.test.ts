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

/** The test server over streamable HTTP on 127.0.0.1 (on `port`, or any): its port and process. */
async function httpServer(port = 0): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, [SERVER, "--http", "--port", String(port)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  started.push(child);
  const found = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (b) => {
      out += b;
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once("exit", (code) => reject(new Error(`the test server exited (${code})`)));
  });
  return { port: found, child };
}

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

interface McpListing {
  name: string;
  transport: string;
  up: boolean | null;
  message?: string;
  tools: { name: string; description: string; schema: { properties?: object } }[];
}

describe("graphspec dev's listing of MCP servers", () => {
  it("lists each server's tools with their schemas, shows a server that is down, and serves the graph once it is back", async () => {
    const devGraphs = join(dir, "dev-graphs");
    mkdirSync(devGraphs);
    writeFileSync(
      join(devGraphs, "echo.yaml"),
      readFileSync(join(dir, "graphs", "echo.yaml"), "utf8"),
    );
    // A port nothing listens on, where the HTTP server starts later.
    const probe = await httpServer();
    const { port } = probe;
    await new Promise<void>((r) => {
      probe.child.once("exit", () => r());
      probe.child.kill();
    });
    writeFileSync(
      join(devGraphs, "remote.yaml"),
      `version: 1
name: remote
state:
  out: { type: string }
mcp_servers:
  h: { url: "http://127.0.0.1:${port}/mcp", tools: all }
nodes:
  call: { kind: tool, tool: echo, args: { text: back }, write: { out: "\${{ string(result) }}" } }
edges:
  - { from: START, to: call }
  - { from: call, to: END }
`,
    );
    const s = await launch(
      "dev",
      "dev-graphs",
      "--port",
      "0",
      "--host",
      "127.0.0.1",
      "--checkpointer",
      "memory",
    );
    const client = new Client({ apiUrl: s.line, callerOptions: { maxRetries: 0 } });
    const listed = async (graph: string) => {
      const a = (await client.assistants.search()).find((x) => x.graph_id === graph)!;
      return a.metadata!.graphspec as {
        refused: boolean;
        served_version: number | null;
        mcp_servers?: McpListing[];
      };
    };

    const echo = await listed("echo");
    expect(echo.mcp_servers).toEqual([
      {
        name: "t",
        transport: "stdio",
        up: true,
        tools: [
          {
            name: "echo",
            description: "Says the text back.",
            schema: expect.objectContaining({
              properties: { text: { type: "string", description: "What to say back" } },
            }),
          },
        ],
      },
    ]);
    const echoId = (await client.assistants.search()).find((x) => x.graph_id === "echo")!;
    const schemas = (await client.assistants.getSchemas(echoId.assistant_id)) as unknown as {
      config_schema: { properties: { toolIds: { items: { enum: string[] } } } };
    };
    expect(schemas.config_schema.properties.toolIds.items.enum).toEqual(["echo"]);

    const down = await listed("remote");
    expect(down.refused).toBe(true);
    expect(down.served_version).toBeNull();
    expect(down.mcp_servers).toMatchObject([
      { name: "h", transport: "http", up: false, tools: [] },
    ]);
    expect(down.mcp_servers![0]!.message).toContain("ECONNREFUSED");

    // Back up: a listing tries it again, and the graph is built and served.
    await httpServer(port);
    let back = await listed("remote");
    while (back.served_version === null) {
      await new Promise((r) => setTimeout(r, 100));
      back = await listed("remote");
    }
    expect(back.refused).toBe(false);
    expect(back.mcp_servers![0]).toMatchObject({ up: true });
    expect(back.mcp_servers![0]!.tools.map((t) => t.name)).toContain("whoami");
    const run = (await client.runs.wait(null, "remote", { input: {} })) as { out?: string };
    expect(run.out).toBe("echo: back");
    s.proc.kill("SIGTERM");
    expect(await s.exited).toBe(0);
  });
});

describe("graphspec serve with an MCP server that is down when its graph is first loaded", () => {
  it("fails the run (not the graph) naming the server, its URL and a hint, and runs once the server is up", async () => {
    const downGraphs = join(dir, "down-graphs");
    mkdirSync(downGraphs);
    // A port nothing listens on, where the HTTP server starts later.
    const probe = await httpServer();
    const { port } = probe;
    await new Promise<void>((r) => {
      probe.child.once("exit", () => r());
      probe.child.kill();
    });
    const url = `http://127.0.0.1:${port}/mcp`;
    writeFileSync(
      join(downGraphs, "remote.yaml"),
      `version: 1
name: remote
state:
  out: { type: string }
mcp_servers:
  h: { url: "${url}", tools: [echo] }
nodes:
  call: { kind: tool, tool: echo, args: { text: back }, write: { out: "\${{ string(result) }}" } }
edges:
  - { from: START, to: call }
  - { from: call, to: END }
`,
    );
    const s = await launch(
      "serve",
      "down-graphs",
      "--no-auth",
      "--port",
      "0",
      "--host",
      "127.0.0.1",
      "--checkpointer",
      "memory",
    );
    const client = new Client({ apiUrl: s.line, callerOptions: { maxRetries: 0 } });
    const thread = await client.threads.create();

    const waited = (await client.runs.wait(thread.thread_id, "remote", {
      input: {},
      raiseError: false,
    })) as {
      __error__?: { error?: string; message?: string; hint?: string };
    };
    expect(waited.__error__).toMatchObject({ error: "mcp-unavailable" });
    expect(waited.__error__?.message).toContain("MCP server `h`");
    expect(waited.__error__?.message).toContain(url);
    expect(waited.__error__?.hint).toContain(url);
    expect(waited.__error__?.message).not.toMatch(/\n\s+at /);

    const streamed: { event: string; data: unknown }[] = [];
    for await (const part of client.runs.stream(thread.thread_id, "remote", { input: {} }))
      streamed.push(part);
    expect(streamed.at(-1)).toMatchObject({ event: "error", data: { error: "mcp-unavailable" } });
    expect(JSON.stringify(streamed.at(-1))).toContain(url);
    const runs = await client.runs.list(thread.thread_id);
    expect(runs.map((r) => r.status)).toEqual(["error", "error"]);

    // The server comes up: the next run on the same thread lists its tools and runs, no restart.
    await httpServer(port);
    const run = (await client.runs.wait(thread.thread_id, "remote", { input: {} })) as {
      out?: string;
    };
    expect(run.out).toBe("echo: back");
    s.proc.kill("SIGTERM");
    expect(await s.exited).toBe(0);
  });
});
