/**
 * `validate --load-modules`: whatever a module starts while it is imported ends with the loading
 * process — also a process that left the loader's process group and session (`setsid`, a
 * double-fork daemon), which killing the group misses. Linux only: that is where graphspec can
 * bound it (a PID namespace, else a sweep by environment token); docs/security.md says what holds
 * elsewhere.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { project, tempDir, toolSpec, validateCli } from "./validate-project.js";

/** The process a module leaves behind: writes its pid to the file named last on its command line, then waits forever. */
const KEEP =
  "require('fs').writeFileSync(process.argv[1], String(process.pid)); setInterval(() => {}, 1000);";

/** Module code: start `how` (which starts KEEP with `started` as its argument), wait until it has, then export a tool. */
const moduleStarting = (
  how: string,
  started: string,
) => `import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
const KEEP = ${JSON.stringify(KEEP)};
const started = ${JSON.stringify(started)};
${how}
for (let i = 0; i < 400 && !existsSync(started); i++) await new Promise((r) => setTimeout(r, 25));
export function ping() { return "pong"; }
`;

const WAYS = {
  "a setsid grandchild (spawn detached)": `spawn(process.execPath, ["-e", KEEP, started], { detached: true, stdio: "ignore" }).unref();`,
  "a grandchild started through setsid(1)": `spawn("setsid", [process.execPath, "-e", KEEP, started], { detached: true, stdio: "ignore" }).unref();`,
  "a double-fork daemon (its parent exits at once)": `spawn(process.execPath, ["-e", "require('child_process').spawn(process.execPath, ['-e', process.argv[1], process.argv[2]], { detached: true, stdio: 'ignore' }).unref()", KEEP, started], { stdio: "ignore" });`,
};

/** Pids of the processes whose command line names `marker` (found by /proc, so whatever namespace wrote the pid file). */
function processesNaming(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, "utf8").includes(marker)) found.push(Number(name));
    } catch {
      // Ended while we looked.
    }
  }
  return found;
}

const markers: string[] = [];
afterAll(() => {
  // A failing run must not leave sleepers behind.
  for (const m of markers)
    for (const pid of processesNaming(m)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
    }
});

/** Polls until no process names `marker`, for at most ~5 s (a guard, not a timing assertion). */
async function survivors(marker: string): Promise<number[]> {
  for (let i = 0; i < 100; i++) {
    const left = processesNaming(marker);
    if (left.length === 0) return left;
    await new Promise((r) => setTimeout(r, 50));
  }
  return processesNaming(marker);
}

/** A PATH in which `unshare` exists but is refused, as where user namespaces are disabled. */
function pathWithoutNamespaces(): string {
  const bin = tempDir("graphspec-no-userns-");
  writeFileSync(
    join(bin, "unshare"),
    '#!/bin/sh\necho "unshare: unshare failed: Operation not permitted" >&2\nexit 1\n',
    { mode: 0o755 },
  );
  return `${bin}:${process.env.PATH ?? ""}`;
}

describe.runIf(process.platform === "linux")(
  "--load-modules: what a module starts ends when validate returns",
  () => {
    const setups = {
      "where PID namespaces are available": {},
      "where they are refused (the environment-token sweep)": { PATH: pathWithoutNamespaces() },
    };
    for (const [where, env] of Object.entries(setups))
      for (const [way, how] of Object.entries(WAYS))
        it(`${where}: ${way}`, async () => {
          const started = join(tempDir("graphspec-started-"), "started.pid");
          markers.push(started);
          const dir = project({
            "tools/ping.mjs": moduleStarting(how, started),
            "graphs/uses.yaml": toolSpec("../tools/ping.mjs"),
          });
          const r = validateCli(dir, ["graphs/", "--load-modules"], env);
          expect(r.status, r.stdout + r.stderr).toBe(0);
          // It did start (so the check below can fail), and it is gone.
          expect(readFileSync(started, "utf8")).toMatch(/^\d+$/);
          expect(await survivors(started)).toEqual([]);
        });
  },
);
