#!/usr/bin/env node
/**
 * What does the server cost? Run with `npm run bench:server` (after `npm run build`). See
 * bench/README.md.
 *
 * Runs per second of a 3-node graph (test/fixtures/server/graphs/three-steps.yaml) two ways, on
 * the same SQLite checkpointer kind, each run on a new thread:
 *
 *   server      `graphspec serve` in a process of its own, as deployed, driven through the official
 *               SDK Client: `runs.wait(threadId, …, { ifNotExists: "create" })`, one request a run
 *   in-process  the same graph through `createExecutor().run()` in this process
 *
 * each sequentially and with 8 concurrent clients (8 runs in flight), alternating sides by round
 * so a busier moment of the machine hits both. It prints medians and the ratio server ÷ in-process
 * (aim: at least 0.5); it never fails on them.
 *
 * Options: --rounds N (default 5), --seconds S (per side per round, default 3).
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { Client } from "@langchain/langgraph-sdk";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const GRAPHS = join(ROOT, "test/fixtures/server/graphs");
const { values: opts } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    seconds: { type: "string", default: "3" },
  },
});
const ROUNDS = Number(opts.rounds);
const SECONDS = Number(opts.seconds);

const { createExecutor } = await import(pathToFileURL(join(ROOT, "dist", "index.js")).href);
const dir = mkdtempSync(join(tmpdir(), "graphspec-bench-server-"));

// The server, as `graphspec serve` runs it.
const server = spawn(
  process.execPath,
  [
    join(ROOT, "bin/graphspec.js"),
    "serve",
    GRAPHS,
    "--no-auth",
    "--port",
    "0",
    "--host",
    "127.0.0.1",
  ],
  { cwd: dir, stdio: ["ignore", "pipe", "inherit"] },
);
const url = await new Promise((resolve, reject) => {
  let out = "";
  server.stdout.on("data", (d) => {
    out += d;
    const m = /http:\/\/\S+/.exec(out);
    if (m) resolve(m[0]);
  });
  server.once("exit", (code) => reject(new Error(`serve exited with ${code}`)));
});
const client = new Client({ apiUrl: url, callerOptions: { maxRetries: 0 } });
const viaServer = () =>
  client.runs.wait(randomUUID(), "three-steps", { input: {}, ifNotExists: "create" });

const exec = createExecutor({
  dir: GRAPHS,
  checkpointer: "sqlite",
  sqlitePath: join(dir, "in-process.db"),
});
const inProcess = async () => {
  const r = await exec.run("three-steps", { threadId: randomUUID() });
  if (r.status !== "completed") throw new Error(`in-process run ${r.status}`);
};

/** Runs per second of `run` with `clients` loops for `SECONDS`. */
async function rate(run, clients) {
  let done = 0;
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        await run();
        done++;
      }
    }),
  );
  return done / SECONDS;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Warm-up: both sides load and compile the graph, open their databases, JIT the paths.
for (let i = 0; i < 30; i++) {
  await viaServer();
  await inProcess();
}

const results = [];
for (const clients of [1, 8]) {
  const server = [];
  const local = [];
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2) {
      local.push(await rate(inProcess, clients));
      server.push(await rate(viaServer, clients));
    } else {
      server.push(await rate(viaServer, clients));
      local.push(await rate(inProcess, clients));
    }
  }
  results.push({ clients, server: median(server), local: median(local) });
}

server.kill("SIGTERM");
await new Promise((r) => server.once("exit", r));
await exec.close();
rmSync(dir, { recursive: true, force: true });

console.log(`three-steps, ${ROUNDS} rounds of ${SECONDS} s per side (medians, runs/s)\n`);
console.log("| clients | server (SDK) | in-process | ratio |");
console.log("| ------- | ------------ | ---------- | ----- |");
for (const r of results)
  console.log(
    `| ${r.clients === 1 ? "1 (sequential)" : r.clients} | ${r.server.toFixed(1)} | ${r.local.toFixed(1)} | ${(r.server / r.local).toFixed(2)} |`,
  );
console.log("\naim: ratio ≥ 0.5");
