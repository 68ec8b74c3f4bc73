/**
 * `graphspec serve` (the built CLI, dist/, after `npm run build`) in a process of its own: started
 * with `args`, answered once it prints its URL — or rejected with its stderr if it exits first.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";

const BIN = join(import.meta.dirname, "..", "..", "bin", "graphspec.js");

export interface ServeProcess {
  proc: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  /** Its stderr so far. */
  stderr(): string;
}

export async function spawnServe(
  args: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<ServeProcess> {
  const proc = spawn(process.execPath, [BIN, "serve", ...args], {
    cwd: opts.cwd,
    env: opts.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  proc.stderr!.on("data", (d) => {
    err += d;
  });
  const exited = new Promise<number | null>((r) => proc.once("exit", (code) => r(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    proc.stdout!.on("data", (d) => {
      out += d;
      const m = /http:\/\/\S+/.exec(out);
      if (m) resolve(m[0]);
    });
    exited.then((code) => reject(new Error(`serve exited (${code}): ${err}`)));
  });
  return { proc, url, exited, stderr: () => err };
}
