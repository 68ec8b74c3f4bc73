/**
 * The built CLI (`npm run build` first) as a user runs it: a process of its own in a folder of the
 * user's project, colours off. And the temporary folders CLI tests make their projects in.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

export const ROOT = join(import.meta.dirname, "..", "..");
export const BIN = join(ROOT, "bin", "graphspec.js");

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `graphspec …` in `cwd`, with `env` over this process's environment. */
export function graphspecIn(cwd: string, env: NodeJS.ProcessEnv = {}) {
  return (...args: string[]): CliResult => {
    const r = spawnSync(process.execPath, [BIN, ...args], {
      cwd,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1", ...env },
    });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
}

/**
 * `graphspec …` in `cwd` without blocking this process: for a CLI that calls back into it (a
 * model provider stub served from the test's own event loop).
 */
export function graphspecAsyncIn(cwd: string, env: NodeJS.ProcessEnv = {}) {
  return (...args: string[]): Promise<CliResult> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        cwd,
        env: { ...process.env, NO_COLOR: "1", ...env },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (b) => {
        stdout += b;
      });
      child.stderr.on("data", (b) => {
        stderr += b;
      });
      child.on("error", reject);
      child.on("close", (status) => resolve({ status, stdout, stderr }));
    });
}

/** A temporary folder `graphspec-<name>-…`, removed after the test file's tests. */
export function scratchDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `graphspec-${name}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
