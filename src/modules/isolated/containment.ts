/**
 * How the loading process is contained, so that whatever a module starts ends with it — also a
 * process that left the loader's process group and session (`setsid()`, a double-fork daemon),
 * which killing the group misses. The strongest way this machine allows, chosen once:
 *
 * - `pid-namespace` (Linux, where unprivileged user namespaces work): the loader runs under
 *   `unshare --user --pid --fork --kill-child` with `/bin/sh` as the namespace's first process.
 *   When that process ends, the kernel kills every process in the namespace, and nothing started
 *   in it can leave it. `sh` stands between the namespace and Node.js because a namespace's first
 *   process ignores the signals it sends itself: a module's `process.kill(process.pid, …)` must
 *   end the loader as it would anywhere else.
 * - `token-sweep` (Linux without them): the loader's environment carries a random token, which
 *   every process it starts inherits unless started with an environment of its own; when the
 *   loader is done, each process whose `/proc/PID/environ` carries the token is killed.
 * - `process-group` (macOS, others): the loader leads its own process group, which is killed.
 *
 * docs/security.md says what each guarantees; docs/design.md why there is no other.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { constants } from "node:os";

export type ContainmentKind = "pid-namespace" | "token-sweep" | "process-group";

/** The variable that marks the loader's processes in `token-sweep`. */
export const TOKEN_VARIABLE = "GRAPHSPEC_LOAD_TOKEN";

/**
 * `unshare` flags, most faithful first: map the user to itself (as it is outside); else leave it
 * unmapped (util-linux before 2.38 has no `--map-current-user`; the process then reads its uid as
 * the overflow uid, but the kernel checks files with the real one).
 */
const NAMESPACE_FLAGS = [
  ["--user", "--map-current-user", "--pid", "--fork", "--kill-child"],
  ["--user", "--pid", "--fork", "--kill-child"],
];

/**
 * The namespace's first process: runs the loader, waits, and exits with its status. `sh` adds
 * `PWD` to the environment; it is taken out again unless the loader is to have it.
 */
const init = (keepPwd: boolean) => [
  "/bin/sh",
  "-c",
  `${keepPwd ? "" : "unset PWD; "}"$@"; exit $?`,
  "graphspec-load-init",
];

function succeeds(command: string, args: string[]): Promise<boolean> {
  return new Promise((done) => {
    const child = spawn(command, args, {
      stdio: "ignore",
      env: process.env.PATH === undefined ? {} : { PATH: process.env.PATH },
    });
    child.once("error", () => done(false));
    child.once("exit", (code) => done(code === 0));
  });
}

/** The `unshare` flags that work here, or undefined. */
async function namespaceFlags(): Promise<string[] | undefined> {
  if (process.platform !== "linux" || !existsSync("/bin/sh")) return undefined;
  for (const flags of NAMESPACE_FLAGS)
    if (await succeeds("unshare", [...flags, "--", ...init(false), "true"])) return flags;
  return undefined;
}

let chosen: Promise<{ kind: ContainmentKind; flags?: string[] }> | undefined;

/** What this machine allows, found once per process. */
function choose(): Promise<{ kind: ContainmentKind; flags?: string[] }> {
  chosen ??= namespaceFlags().then((flags) => {
    if (flags) return { kind: "pid-namespace" as const, flags };
    if (process.platform === "linux" && existsSync("/proc/self/environ"))
      return { kind: "token-sweep" as const };
    return { kind: "process-group" as const };
  });
  return chosen;
}

export interface Contained {
  kind: ContainmentKind;
  /** What to spawn, in its own process group, in place of `node ...args`. */
  command: string;
  args: string[];
  /** The loader's environment. */
  env: Record<string, string>;
  /** The loader's own exit, from the status of what was spawned. */
  exitOf(
    code: number | null,
    signal: NodeJS.Signals | null,
  ): { code: number | null; signal: NodeJS.Signals | null };
  /** Ends the process group led by `pid` and whatever else the loader started; resolves when done. */
  end(pid: number | undefined): Promise<void>;
}

/** Kills the process group `pid` leads (on Windows, the process: it has no groups). */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(process.platform === "win32" ? pid : -pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

const signalNames = new Map<number, NodeJS.Signals>(
  Object.entries(constants.signals).map(([name, n]) => [n, name as NodeJS.Signals]),
);

/** `sh` reports a child ended by signal N as status 128+N (no signal's number is 0 or less). */
function fromShellStatus(code: number | null, signal: NodeJS.Signals | null) {
  const byShell = signalNames.get((code ?? 0) - 128);
  return byShell ? { code: null, signal: byShell } : { code, signal };
}

/** Pids whose environment carries `NAME=token`. Other users' processes cannot be read, and are not ours. */
async function carrying(entry: string): Promise<number[]> {
  const names = await readdir("/proc").catch(() => [] as string[]);
  const found = await Promise.all(
    names
      .filter((n) => /^\d+$/.test(n) && Number(n) !== process.pid)
      .map(async (n) => {
        const environ = await readFile(`/proc/${n}/environ`, "latin1").catch(() => "");
        // Not mutation-tested (docs/mutation-report.md): a test that blanks the entry or makes
        // this true kills every process of the user the tests run as, Stryker's own with them.
        // Stryker disable next-line StringLiteral,ConditionalExpression: unsafe to run
        return environ.startsWith(entry) || environ.includes(`\0${entry}`) ? Number(n) : undefined;
      }),
  );
  return found.filter((pid) => pid !== undefined);
}

/** Sweeps a few times: a process may fork while the first sweep kills its parent. */
const SWEEPS = 5;

async function sweep(entry: string): Promise<void> {
  for (let i = 0; i < SWEEPS; i++) {
    const pids = await carrying(entry);
    if (pids.length === 0) return;
    for (const pid of pids) {
      // Its group too, if it leads one: children it started with an environment of their own.
      // (A group's id is its leader's pid, which is not reused while the group lives.)
      killGroup(pid);
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
  }
}

/** How to start the loader `node ...args` with environment `env` here, and how to end all it started. */
export async function contain(args: string[], env: Record<string, string>): Promise<Contained> {
  const how = await choose();
  if (how.kind === "pid-namespace")
    return {
      kind: how.kind,
      command: "unshare",
      args: [...(how.flags ?? []), "--", ...init("PWD" in env), process.execPath, ...args],
      env,
      exitOf: fromShellStatus,
      // Killing the group kills the namespace's first process, which takes the namespace with it.
      end: async (pid) => killGroup(pid),
    };
  if (how.kind === "token-sweep") {
    const token = randomBytes(16).toString("hex");
    // Stryker disable next-line StringLiteral: a blank entry is in every environment (see carrying)
    const entry = `${TOKEN_VARIABLE}=${token}\0`;
    return {
      kind: how.kind,
      command: process.execPath,
      args,
      env: { ...env, [TOKEN_VARIABLE]: token },
      exitOf: (code, signal) => ({ code, signal }),
      end: async (pid) => {
        killGroup(pid);
        await sweep(entry);
      },
    };
  }
  return {
    kind: how.kind,
    command: process.execPath,
    args,
    env,
    exitOf: (code, signal) => ({ code, signal }),
    end: async (pid) => killGroup(pid),
  };
}
