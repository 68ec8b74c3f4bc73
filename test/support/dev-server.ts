/**
 * `graphspec dev` as users run it — the built CLI (dist/, after `npm run build`) in a process of
 * its own — on a temp project, for the page's tests and its benchmark: `--port 0`, in-memory
 * checkpoints, scripted models' answers with `--scripts`. Its URL is the line it prints.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");
export const BIN = join(ROOT, "bin", "graphspec.js");

export interface DevServer {
  url: string;
  /** The project's root: package.json, graphs/, tools/. */
  root: string;
  /** Writes a file of the project (a spec save, as an editor makes it). */
  write(rel: string, text: string): void;
  /** What the server wrote on stderr so far (reloads, refusals). */
  stderr(): string;
  /** What the server wrote on stdout so far (its URL, Studio's link). */
  stdout(): string;
  /** Stops the server and removes the project — unless `keep` (to start another on it: `root`). */
  stop(keep?: boolean): Promise<void>;
}

export interface DevServerOptions {
  /** Files of the project by path relative to its root (`graphs/x.yaml`: text). */
  files?: Record<string, string>;
  /** Copy the repository's graphs/ and tools/ (their modules import from node_modules). */
  repoGraphs?: boolean;
  /** Answers for `scripted:NAME` models, by NAME (`--scripts`). */
  scripts?: Record<string, unknown[]>;
  /** More arguments for `graphspec dev` (`--allow-origin …`). */
  args?: string[];
  /** Environment variables over this process's (a provider key emptied). */
  env?: NodeJS.ProcessEnv;
  /**
   * Serve this project (another DevServer's `root`, stopped with `keep`): a restart on the same
   * files and `.graphspec/state.db`. Its files are left as they are.
   */
  root?: string;
}

export async function startDevServer(opts: DevServerOptions = {}): Promise<DevServer> {
  const own = opts.root === undefined;
  const root = opts.root ?? mkdtempSync(join(tmpdir(), "graphspec-web-"));
  const write = (rel: string, text: string) => {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
  };
  if (own) write("package.json", '{ "type": "module" }\n');
  mkdirSync(join(root, "graphs"), { recursive: true });
  if (own && opts.repoGraphs) {
    cpSync(join(ROOT, "graphs"), join(root, "graphs"), { recursive: true });
    cpSync(join(ROOT, "tools"), join(root, "tools"), { recursive: true });
    // Tool modules import @langchain/core and zod: resolve them from the repository's install.
    symlinkSync(join(ROOT, "node_modules"), join(root, "node_modules"), "dir");
  }
  for (const [rel, text] of Object.entries(opts.files ?? {})) write(rel, text);
  const args = [BIN, "dev", "graphs", "--port", "0", "--checkpointer", "memory"];
  if (opts.scripts) {
    write("scripts.json", JSON.stringify(opts.scripts));
    args.push("--scripts", `@${join(root, "scripts.json")}`);
  }
  args.push(...(opts.args ?? []));
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...opts.env },
  });
  let out = "";
  let err = "";
  child.stderr?.on("data", (b) => {
    err += b;
  });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  const stop = async (keep = false) => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await exited;
    }
    if (!keep) rmSync(root, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout?.on("data", (b) => {
        out += b;
        const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
        if (m) resolve(m[0]);
      });
      child.once("exit", (code) =>
        reject(new Error(`graphspec dev exited (${code}) before printing its URL:\n${err}`)),
      );
    });
    return { url, root, write, stderr: () => err, stdout: () => out, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
