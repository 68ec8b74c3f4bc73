#!/usr/bin/env node
/**
 * Does a background run wait for anything a streamed run does not? Run with
 * `npm run bench:background` (after `npm run build`). See bench/README.md.
 *
 * One `graphspec serve --checkpointer sqlite` (a process of its own, idle but for this bench),
 * driven through the official SDK Client, the soak's three-node graph
 * (test/fixtures/soak/graphs/small.yaml) on a new thread each time, two ways, alternately:
 *
 *   background  `threads.create`, `runs.create`, `runs.join` (the soak's normal background run)
 *   stream      `threads.create`, `runs.stream` read to its end
 *
 * A background run is one request more than a streamed one, and a queue between them; if the
 * queue's worker or `join` polled, their wait would show here as a difference of its interval.
 * It prints medians and the ratio background ÷ stream; it never fails on them.
 *
 * Options: --runs N (of each, default 40), --root DIR (measure the build in that checkout).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@langchain/langgraph-sdk";
import { benchOptions } from "./options.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values: opts } = benchOptions(import.meta.url, {
  runs: { type: "string", default: "40" },
  root: { type: "string" },
});
const BUILD = opts.root ? resolve(opts.root) : ROOT;
const RUNS = Number(opts.runs);

const cwd = mkdtempSync(join(tmpdir(), "graphspec-bench-background-"));
const child = spawn(
  process.execPath,
  [
    join(BUILD, "bin/graphspec.js"),
    "serve",
    join(ROOT, "test/fixtures/soak/graphs"),
    "--no-auth",
    "--checkpointer",
    "sqlite",
    "--port",
    "0",
    "--host",
    "127.0.0.1",
  ],
  { cwd, stdio: ["ignore", "pipe", "inherit"] },
);
const url = await new Promise((resolve, reject) => {
  let out = "";
  child.stdout.on("data", (d) => {
    out += d;
    const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
    if (m) resolve(m[0]);
  });
  child.once("exit", (code) => reject(new Error(`serve exited (${code}) before its URL`)));
});
const client = new Client({ apiUrl: url, callerOptions: { maxRetries: 0 } });

const ways = {
  async background() {
    const thread = (await client.threads.create()).thread_id;
    const run = await client.runs.create(thread, "small", { input: {} });
    await client.runs.join(thread, run.run_id);
  },
  async stream() {
    const thread = (await client.threads.create()).thread_id;
    for await (const _ of client.runs.stream(thread, "small", { input: {} }));
  },
};
const times = { background: [], stream: [] };
for (let i = 0; i < 10; i++) for (const way of Object.values(ways)) await way();
for (let i = 0; i < RUNS; i++)
  for (const [name, way] of Object.entries(ways)) {
    const t0 = performance.now();
    await way();
    times[name].push(performance.now() - t0);
  }
child.kill("SIGTERM");
await new Promise((r) => child.once("exit", r));
rmSync(cwd, { recursive: true, force: true });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, xs] of Object.entries(times))
  console.log(`${name.padEnd(10)} median ${median(xs).toFixed(1)} ms of ${xs.length}`);
console.log(
  `background ÷ stream: ${(median(times.background) / median(times.stream)).toFixed(2)} (one request more; a poll would add its interval)`,
);
