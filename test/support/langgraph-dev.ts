/**
 * The official LangGraph dev server (`@langchain/langgraph-cli dev`, the version this repository
 * installs) in a process group of its own, offline on 127.0.0.1, serving the project in `cwd`.
 * Ready when `/ok` answers; its output kept for the tests to read.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");
const LANGGRAPH_CLI = join(ROOT, "node_modules/@langchain/langgraph-cli/dist/cli/cli.mjs");

export interface LanggraphDev {
  url: string;
  /** What the server printed so far (stdout and stderr). */
  log(): string;
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

export async function startLanggraphDev(
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<LanggraphDev> {
  const port = await freePort();
  let log = "";
  const server: ChildProcess = spawn(
    process.execPath,
    [LANGGRAPH_CLI, "dev", "--no-browser", "--host", "127.0.0.1", "--port", String(port)],
    {
      cwd,
      // Its own process group: the CLI starts the server as a child, and both must stop.
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, LANGGRAPH_CLI_NO_ANALYTICS: "1", ...env },
    },
  );
  server.stdout!.on("data", (d) => {
    log += d;
  });
  server.stderr!.on("data", (d) => {
    log += d;
  });
  const exited = new Promise<never>((_, reject) =>
    server.once("exit", (code) => reject(new Error(`dev server exited ${code}:\n${log}`))),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  const ready = (async () => {
    while (Date.now() < deadline) {
      const ok = await fetch(`${url}/ok`).then(
        (res) => res.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((res) => setTimeout(res, 250));
    }
    throw new Error(`dev server not ready in 120s:\n${log}`);
  })();
  try {
    await Promise.race([ready, exited]);
  } catch (e) {
    await stop();
    throw e;
  }
  exited.catch(() => {});

  async function stop() {
    if (!server.pid || server.exitCode !== null || server.signalCode !== null) return;
    const gone = new Promise((res) => server.once("exit", res));
    process.kill(-server.pid, "SIGTERM");
    const killed = await Promise.race([
      gone.then(() => true),
      new Promise((res) => setTimeout(() => res(false), 10_000)),
    ]);
    if (!killed) process.kill(-server.pid, "SIGKILL");
  }
  return { url, log: () => log, stop };
}
