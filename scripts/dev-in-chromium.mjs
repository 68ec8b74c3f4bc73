/**
 * What the scripts that look at the page share (bench/web.mjs, scripts/screenshot.mjs): the built
 * CLI's `graphspec dev` started on a folder, and Debian's Chromium through playwright-core with
 * the flags of a quiet offline browser (test/support/browser.ts has the tests' own copy, typed).
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Chromium, or exit 1 saying how to get one. */
export async function launchChromium() {
  const executablePath = process.env.GRAPHSPEC_CHROMIUM || "/usr/bin/chromium";
  if (!existsSync(executablePath)) {
    console.error(
      `no Chromium at ${executablePath}: apt-get install chromium, or set GRAPHSPEC_CHROMIUM`,
    );
    process.exit(1);
  }
  return chromium.launch({
    executablePath,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  });
}

/** `graphspec dev graphs --port 0 --checkpointer memory [extra…]` in `cwd`: its URL and process. */
export async function startDev(cwd, extra = []) {
  const server = spawn(
    process.execPath,
    [
      join(ROOT, "bin/graphspec.js"),
      ...["dev", "graphs", "--port", "0", "--checkpointer", "memory", ...extra],
    ],
    { cwd, stdio: ["ignore", "pipe", "inherit"] },
  );
  const url = await new Promise((resolve, reject) => {
    let out = "";
    server.stdout.on("data", (d) => {
      out += d;
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (m) resolve(m[0]);
    });
    server.once("exit", (code) => reject(new Error(`graphspec dev exited with ${code}`)));
  });
  return { url, server };
}
