/**
 * `graphspec run` with a graph whose tools come from an MCP server (the built CLI, `npm run build`
 * first): the server is started over stdio by the run and ended with it, a server that does not
 * start fails the run with a coded error and a hint, without a stack trace, and one that dies
 * during a call fails the run with `mcp-unavailable` and a resumable thread.
 */

import type { ChildProcess } from "node:child_process";
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { graphspecIn, ROOT, scratchDir } from "./support/cli.js";

const SERVER = join(ROOT, "test", "support", "mcp-test-server.mjs");
const dir = scratchDir("cli-mcp");
writeFileSync(join(dir, "package.json"), "{}");
const graphspec = graphspecIn(dir);
const servers: ChildProcess[] = [];
afterAll(() => {
  for (const s of servers) s.kill();
});

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A graph with one `tool` node calling `tool` of a server started by `args`. */
function spec(file: string, args: string[], tool: string, toolArgs: string): string {
  writeFileSync(
    join(dir, file),
    `version: 1
name: ${file.replace(".yaml", "")}
state:
  out: { type: string }
mcp_servers:
  t:
    command: node
    args: ${JSON.stringify(args)}
    env: { MCP_TEST_PID_FILE: ${JSON.stringify(join(dir, "pid"))} }
    tools: [${tool}]
nodes:
  call: { kind: tool, tool: ${tool}, args: ${toolArgs}, write: { out: "\${{ string(result) }}" } }
edges:
  - { from: START, to: call }
  - { from: call, to: END }
`,
  );
  return file;
}

describe("graphspec run with an MCP server", () => {
  it("starts the server for the run and leaves no process behind when it exits", () => {
    const r = graphspec(
      "run",
      spec("echo.yaml", [SERVER], "echo", "{ text: hello }"),
      "--json",
      "--checkpointer",
      "memory",
    );
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).output.out).toBe("echo: hello");
    const pid = Number(readFileSync(join(dir, "pid"), "utf8"));
    expect(alive(pid)).toBe(false);
  });

  it("fails the run when its server does not start, saying which server, over which transport, with a hint", () => {
    const r = graphspec(
      "run",
      spec("down.yaml", [join(dir, "missing.mjs")], "echo", "{ text: x }"),
      "--json",
      "--checkpointer",
      "memory",
    );
    expect(r.status).toBe(1);
    const result = JSON.parse(r.stdout);
    expect(result.status).toBe("failed");
    expect(result.error.code).toBe("mcp-unavailable");
    expect(result.error.message).toMatch(
      /MCP server `t` \(stdio: node .*missing\.mjs\) is unavailable/,
    );
    expect(result.error.hint).toMatch(/run it by hand/);
    expect(r.stdout).not.toMatch(/\n\s+at /);
  });

  it("fails a run whose server dies during a call with mcp-unavailable, the thread kept", () => {
    const r = graphspec(
      "run",
      spec("crash.yaml", [SERVER], "crash", "{}"),
      "--json",
      "--thread",
      "crashed",
    );
    const result = JSON.parse(r.stdout);
    expect(result.status).toBe("failed");
    expect(result.error.code).toBe("mcp-unavailable");
    expect(result.next).toEqual(["call"]);
  });
});

describe("compile() from the package without McpConnections", () => {
  it("lets a script that never closes the connections exit", () => {
    const r = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `
        import { compile } from "graphspec";
        const graph = await compile(${JSON.stringify(join(dir, spec("compiled.yaml", [SERVER], "echo", "{ text: once }")))});
        const out = await graph.invoke({});
        console.log(out.out);
        `,
      ],
      // A guard against a hang (the bug), not a measure.
      { cwd: ROOT, encoding: "utf8", timeout: 60_000 },
    );
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe("echo: once");
  });
});

it("compile() without McpConnections lets a script using a streamable HTTP server exit too", async () => {
  const server = spawn(process.execPath, [SERVER, "--http"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  servers.push(server);
  const port = await new Promise<number>((resolve) => {
    let out = "";
    server.stdout!.on("data", (b) => {
      out += b;
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
  });
  const file = join(dir, "http.yaml");
  writeFileSync(
    file,
    `version: 1
name: http
state:
  out: { type: string }
mcp_servers:
  h: { url: "http://127.0.0.1:${port}/mcp", tools: [echo] }
nodes:
  call: { kind: tool, tool: echo, args: { text: once }, write: { out: "\${{ string(result) }}" } }
edges:
  - { from: START, to: call }
  - { from: call, to: END }
`,
  );
  const r = await new Promise<{ status: number | null; signal: string | null; stdout: string }>(
    (resolve) => {
      const child = spawn(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          `import { compile } from "graphspec";
           const graph = await compile(${JSON.stringify(file)});
           console.log((await graph.invoke({})).out);`,
        ],
        { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
      );
      let stdout = "";
      child.stdout!.on("data", (b) => {
        stdout += b;
      });
      // A guard against a hang (the bug), not a measure.
      const guard = setTimeout(() => child.kill(), 60_000);
      child.on("exit", (status, signal) => {
        clearTimeout(guard);
        resolve({ status, signal, stdout });
      });
    },
  );
  expect(r.signal).toBeNull();
  expect(r.status).toBe(0);
  expect(r.stdout.trim()).toBe("echo: once");
});
