/**
 * Vitest global set-up: a real PostgreSQL server for the tests, started from the machine's
 * binaries (Debian's `postgresql`, which `.ci/run` installs) in a temporary directory on a free
 * loopback port, and stopped after. Tests read its URL with `inject("databaseUrl")`.
 *
 * GRAPHSPEC_TEST_DATABASE_URL points the tests at a server of your own instead. With neither a
 * server nor the binaries, the PostgreSQL tests are skipped — except under CI, where that fails.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** A PostgreSQL server's URL (its `postgres` database), or "" when there is none. */
    databaseUrl: string;
  }
}

/** The directory of `initdb` and `postgres`: pg_config's, else the newest Debian version's. */
function binDir(): string | undefined {
  try {
    const dir = execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();
    if (existsSync(join(dir, "initdb"))) return dir;
  } catch {}
  const debian = "/usr/lib/postgresql";
  if (!existsSync(debian)) return undefined;
  const versions = readdirSync(debian)
    .filter((v) => existsSync(join(debian, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(debian, versions[0], "bin") : undefined;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** PostgreSQL refuses to run as root: run its commands as the `postgres` user then. */
const asServerUser = (command: string, args: string[]): [string, string[]] =>
  process.getuid?.() === 0
    ? ["runuser", ["-u", "postgres", "--", command, ...args]]
    : [command, args];

async function waitUntilReady(bin: string, port: number, server: ChildProcess, log: () => string) {
  for (let waited = 0; waited < 30_000; waited += 100) {
    if (server.exitCode !== null) throw new Error(`postgres exited at start:\n${log()}`);
    try {
      execFileSync(join(bin, "pg_isready"), ["-h", "127.0.0.1", "-p", String(port)], {
        stdio: "ignore",
      });
      return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`postgres did not accept connections within 30s:\n${log()}`);
}

/**
 * A process that killed this one would not run the teardown — StrykerJS ends a test runner whose
 * mutant hangs, and runs the set-up again in a new one: a watchdog stops the server and removes its
 * folder once this process is gone, so no server outlives its tests.
 */
function stopWhenGone(bin: string, data: string, dir: string): ChildProcess {
  const [pgCtl, args] = asServerUser(join(bin, "pg_ctl"), ["stop", "-D", data, "-m", "immediate"]);
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 2; done; "$0" "$@" >/dev/null 2>&1; rm -rf "${dir}"`;
  const watchdog = spawn("sh", ["-c", script, pgCtl, ...args], { detached: true, stdio: "ignore" });
  watchdog.unref();
  return watchdog;
}

export default async function setup(project: TestProject) {
  const given = process.env.GRAPHSPEC_TEST_DATABASE_URL;
  if (given) {
    project.provide("databaseUrl", given);
    return;
  }
  const bin = binDir();
  if (!bin) {
    if (process.env.CI) {
      throw new Error(
        "PostgreSQL is not installed: .ci/run installs Debian's postgresql before the tests",
      );
    }
    console.warn(
      "PostgreSQL tests skipped: install postgresql (apt-get install postgresql) or set GRAPHSPEC_TEST_DATABASE_URL",
    );
    project.provide("databaseUrl", "");
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "graphspec-pg-"));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }));
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }));
    chownSync(dir, uid, gid);
  }
  const data = join(dir, "data");
  const [initdb, initArgs] = asServerUser(join(bin, "initdb"), [
    "-D",
    data,
    "-U",
    "graphspec",
    "--auth=trust",
    "--no-sync",
    "-E",
    "UTF8",
  ]);
  execFileSync(initdb, initArgs, { stdio: "pipe" });
  const port = await freePort();
  const [postgres, args] = asServerUser(join(bin, "postgres"), [
    "-D",
    data,
    "-p",
    String(port),
    "-k",
    dir,
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    "fsync=off",
    "-c",
    "max_connections=200",
  ]);
  let output = "";
  const server = spawn(postgres, args, { stdio: ["ignore", "pipe", "pipe"] });
  server.stdout?.on("data", (d) => {
    output += d;
  });
  server.stderr?.on("data", (d) => {
    output += d;
  });
  await waitUntilReady(bin, port, server, () => output);
  const watchdog = stopWhenGone(bin, data, dir);
  project.provide("databaseUrl", `postgresql://graphspec@127.0.0.1:${port}/postgres`);

  return async () => {
    watchdog.kill();
    // pg_ctl's fast shutdown (a signal to `runuser` would not reach the server).
    const [pgCtl, stopArgs] = asServerUser(join(bin, "pg_ctl"), [
      "stop",
      "-D",
      data,
      "-m",
      "fast",
      "-w",
    ]);
    try {
      execFileSync(pgCtl, stopArgs, { stdio: "ignore" });
    } catch {
      server.kill("SIGKILL");
    }
    rmSync(dir, { recursive: true, force: true });
  };
}
