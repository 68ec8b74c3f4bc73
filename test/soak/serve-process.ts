/**
 * `graphspec serve` as an operator runs it — the built CLI (dist/, after `npm run build`) in a
 * process of its own, so the memory read from /proc/<pid>/status is the server's alone — with an
 * API key file of two tenants, on SQLite under a temporary working directory, on 127.0.0.1.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const BIN = join(import.meta.dirname, "..", "..", "bin", "graphspec.js");

export interface Served {
  url: string;
  pid: number;
  /** Resident memory now, in bytes (VmRSS). */
  rss(): number;
  /** The highest resident memory so far, in bytes (VmHWM). */
  peakRss(): number;
  alive(): boolean;
  stderr(): string;
  /** SIGTERM, then the exit code (null if it had to be killed). */
  stop(): Promise<number | null>;
}

export async function startServe(opts: {
  graphs: string;
  /** API key → tenant id. */
  keys: Record<string, string>;
  args?: string[];
}): Promise<Served> {
  const cwd = mkdtempSync(join(tmpdir(), "graphspec-soak-"));
  writeFileSync(join(cwd, "keys.json"), JSON.stringify(opts.keys));
  const child: ChildProcess = spawn(
    process.execPath,
    [BIN, "serve", opts.graphs, "--api-keys", "keys.json", "--host", "127.0.0.1", "--port", "0"]
      .concat(["--checkpointer", "sqlite"])
      .concat(opts.args ?? []),
    { cwd, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } },
  );
  let out = "";
  let err = "";
  child.stderr!.on("data", (d) => {
    err += d;
  });
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (m) resolve(m[0]);
    });
    child.once("exit", (code) =>
      reject(new Error(`serve exited (${code}) before its URL:\n${err}`)),
    );
  });
  const status = (field: string) => {
    const text = readFileSync(`/proc/${child.pid}/status`, "utf8");
    return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text)![1]) * 1024;
  };
  return {
    url,
    pid: child.pid!,
    rss: () => status("VmRSS"),
    peakRss: () => status("VmHWM"),
    alive: () => child.exitCode === null && child.signalCode === null,
    stderr: () => err,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
        const code = await exited;
        clearTimeout(timer);
        rmSync(cwd, { recursive: true, force: true });
        return code;
      }
      rmSync(cwd, { recursive: true, force: true });
      return child.exitCode;
    },
  };
}
