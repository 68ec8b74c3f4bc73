/**
 * `graphspec serve` as an operator runs it — the built CLI (dist/, after `npm run build`) in a
 * process of its own, so the memory read from /proc/<pid>/status is the server's alone — with an
 * API key file of two tenants, on SQLite under a temporary working directory, on 127.0.0.1.
 */
import { type ChildProcess, spawn } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const BIN = join(import.meta.dirname, "..", "..", "bin", "graphspec.js");
const HEAP_PROBE = join(import.meta.dirname, "heap-probe.mjs");

export interface Served {
  url: string;
  pid: number;
  /** Resident memory now, in bytes (VmRSS). */
  rss(): number;
  /** The highest resident memory so far, in bytes (VmHWM). */
  peakRss(): number;
  /** CPU time it has used so far (user and system), in ms. */
  cpuMs(): number;
  alive(): boolean;
  stderr(): string;
  /**
   * The server's `process.memoryUsage()` right after a full garbage collection (heap-probe.mjs):
   * its `heapUsed` is what the server holds on to, without the garbage its resident size counts.
   */
  heapAfterGc(): Promise<NodeJS.MemoryUsage>;
  /** With GRAPHSPEC_SOAK_SNAPSHOTS: a heap snapshot written there, once written (else nothing). */
  snapshot(): Promise<void>;
  /** SIGTERM, then the exit code (null if it had to be killed). */
  stop(): Promise<number | null>;
}

/**
 * For looking into a soak (never set by the suite): GRAPHSPEC_SOAK_NODE_ARGS, Node flags for the
 * server (`--cpu-prof --cpu-prof-dir=DIR`, …); GRAPHSPEC_SOAK_SNAPSHOTS, a folder where the server
 * writes a heap snapshot each time `snapshot()` asks (SIGUSR2).
 */
const SNAPSHOTS = process.env.GRAPHSPEC_SOAK_SNAPSHOTS;
const nodeArgs = () => [
  "--expose-gc",
  "--import",
  pathToFileURL(HEAP_PROBE).href,
  ...(process.env.GRAPHSPEC_SOAK_NODE_ARGS?.split(" ").filter(Boolean) ?? []),
  ...(SNAPSHOTS ? [`--diagnostic-dir=${SNAPSHOTS}`, "--heapsnapshot-signal=SIGUSR2"] : []),
];

export async function startServe(opts: {
  graphs: string;
  /** API key → tenant id. */
  keys: Record<string, string>;
  args?: string[];
}): Promise<Served> {
  const cwd = mkdtempSync(join(tmpdir(), "graphspec-soak-"));
  writeFileSync(join(cwd, "keys.json"), JSON.stringify(opts.keys));
  const heapFile = join(cwd, "heap-after-gc.jsonl");
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...nodeArgs(),
      BIN,
      "serve",
      opts.graphs,
      "--api-keys",
      "keys.json",
      "--host",
      "127.0.0.1",
      "--port",
      "0",
    ]
      .concat(["--checkpointer", "sqlite"])
      .concat(opts.args ?? []),
    {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1", GRAPHSPEC_SOAK_HEAP_FILE: heapFile },
    },
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
    cpuMs: () => {
      // utime and stime, the 14th and 15th fields, after the command name's closing parenthesis;
      // in clock ticks of USER_HZ, 100 a second on Linux.
      const stat = readFileSync(`/proc/${child.pid}/stat`, "utf8");
      const [utime, stime] = stat
        .slice(stat.lastIndexOf(")") + 2)
        .split(" ")
        .slice(11, 13);
      return (Number(utime) + Number(stime)) * 10;
    },
    alive: () => child.exitCode === null && child.signalCode === null,
    stderr: () => err,
    async heapAfterGc() {
      const lines = () =>
        existsSync(heapFile) ? readFileSync(heapFile, "utf8").split("\n").filter(Boolean) : [];
      const before = lines().length;
      child.kill("SIGWINCH");
      // A full collection of a few hundred MiB takes well under a second; a dead server, forever.
      for (const until = Date.now() + 30_000; Date.now() < until; ) {
        await new Promise((r) => setTimeout(r, 100));
        const now = lines();
        if (now.length > before) return JSON.parse(now.at(-1)!) as NodeJS.MemoryUsage;
      }
      throw new Error(
        `the server wrote no heap figures in 30 s (alive: ${child.exitCode === null && child.signalCode === null})`,
      );
    },
    async snapshot() {
      if (!SNAPSHOTS) return;
      const before = new Set(readdirSync(SNAPSHOTS));
      child.kill("SIGUSR2");
      // Written once the file exists and its size has stopped changing.
      let last = -1;
      for (;;) {
        await new Promise((r) => setTimeout(r, 1000));
        const file = readdirSync(SNAPSHOTS).find(
          (f) => f.endsWith(".heapsnapshot") && !before.has(f),
        );
        if (!file) continue;
        const size = statSync(join(SNAPSHOTS, file)).size;
        if (size === last && size > 0) return;
        last = size;
      }
    },
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
