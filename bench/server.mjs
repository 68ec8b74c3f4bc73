#!/usr/bin/env node
/**
 * What does the server cost? Run with `npm run bench:server` (after `npm run build`). See
 * bench/README.md.
 *
 * Runs per second of a 3-node graph (test/fixtures/server/graphs/three-steps.yaml), each run on a
 * new thread, two ways on the same checkpointer kind (SQLite, then memory):
 *
 *   server      `graphspec serve --checkpointer <kind>` in a process of its own, as deployed,
 *               driven through the official SDK Client, one request a run:
 *               wait    `runs.wait(threadId, …, { ifNotExists: "create" })`
 *               stream  `runs.stream(threadId, …, { ifNotExists: "create" })`, read to its end
 *   in-process  the same graph through `createExecutor()` in this process: `run()` beside `wait`,
 *               `stream()` read to its end beside `stream`
 *
 * each sequentially and with 8 concurrent clients (8 runs in flight), alternating sides by round
 * so a busier moment of the machine hits both. It prints medians and the ratio server ÷ in-process
 * (aim: at least 0.8); it never fails on them.
 *
 * Options: --rounds N (default 5), --seconds S (per side per round, default 2),
 * --checkpointers sqlite,memory, --calls wait,stream, --clients 1,8,
 * --root DIR (measure the graphspec build in that checkout instead of this one),
 * --compare DIR (also that checkout's `graphspec serve`, e.g. an older commit's, in the same
 * rounds: before and after under the same load),
 * --prof DIR (the server runs with `--cpu-prof --cpu-prof-dir DIR`: its profile is written there
 * when it stops).
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "@langchain/langgraph-sdk";
import { benchOptions } from "./options.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const GRAPHS = join(ROOT, "test/fixtures/server/graphs");
const { values: opts } = benchOptions(import.meta.url, {
  rounds: { type: "string", default: "5" },
  seconds: { type: "string", default: "2" },
  checkpointers: { type: "string", default: "sqlite,memory" },
  calls: { type: "string", default: "wait,stream" },
  clients: { type: "string", default: "1,8" },
  prof: { type: "string" },
  root: { type: "string" },
  compare: { type: "string" },
});
// Another build of graphspec to measure (both sides), e.g. an older commit's checkout.
const BUILD = opts.root ? resolve(opts.root) : ROOT;
const ROUNDS = Number(opts.rounds);
const SECONDS = Number(opts.seconds);
const list = (s) => s.split(",").filter(Boolean);

const { createExecutor } = await import(pathToFileURL(join(BUILD, "dist", "index.js")).href);
const dir = mkdtempSync(join(tmpdir(), "graphspec-bench-server-"));

/** `graphspec serve` as deployed, in a process of its own; answers its URL and how to stop it. */
async function startServe(checkpointer, build = BUILD) {
  const prof =
    opts.prof && build === BUILD ? ["--cpu-prof", "--cpu-prof-dir", resolve(opts.prof)] : [];
  const cwd = mkdtempSync(join(dir, `${checkpointer}-`));
  const child = spawn(
    process.execPath,
    [
      ...prof,
      join(build, "bin/graphspec.js"),
      "serve",
      GRAPHS,
      "--no-auth",
      "--checkpointer",
      checkpointer,
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
      const m = /http:\/\/\S+/.exec(out);
      if (m) resolve(m[0]);
    });
    child.once("exit", (code) => reject(new Error(`serve exited with ${code}`)));
  });
  return {
    url,
    pid: child.pid,
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    },
  };
}

/** CPU time (user + system) of process `pid` so far, in ms (Linux: /proc; elsewhere 0). */
function cpuOf(pid) {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(f[11]) + Number(f[12])) * 1000) / TICKS;
  } catch {
    return 0;
  }
}
const TICKS = 100; // USER_HZ on Linux
const ownCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * Runs per second of `run` with `clients` loops for `SECONDS`, and the CPU ms per run of this
 * process and of the server process `pid` (when given) meanwhile.
 */
async function rate(run, clients, pid) {
  let done = 0;
  const own = ownCpu();
  const theirs = pid ? cpuOf(pid) : 0;
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        await run();
        done++;
      }
    }),
  );
  return {
    rate: done / SECONDS,
    cpu: (ownCpu() - own) / done,
    serverCpu: pid ? (cpuOf(pid) - theirs) / done : 0,
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const results = [];
for (const checkpointer of list(opts.checkpointers)) {
  const serve = await startServe(checkpointer);
  const client = new Client({ apiUrl: serve.url, callerOptions: { maxRetries: 0 } });
  const other = opts.compare ? await startServe(checkpointer, resolve(opts.compare)) : undefined;
  const otherClient = other && new Client({ apiUrl: other.url, callerOptions: { maxRetries: 0 } });
  const exec = createExecutor({
    dir: GRAPHS,
    checkpointer,
    ...(checkpointer === "sqlite"
      ? { sqlitePath: join(dir, `in-process-${checkpointer}.db`) }
      : {}),
  });
  const sides = {
    wait: {
      server: async (c = client) => {
        const v = await c.runs.wait(randomUUID(), "three-steps", {
          input: {},
          ifNotExists: "create",
        });
        if (v?.__error__) throw new Error(`server run failed: ${JSON.stringify(v.__error__)}`);
      },
      local: async () => {
        const r = await exec.run("three-steps", { threadId: randomUUID() });
        if (r.status !== "completed") throw new Error(`in-process run ${r.status}`);
      },
    },
    stream: {
      server: async (c = client) => {
        for await (const e of c.runs.stream(randomUUID(), "three-steps", {
          input: {},
          ifNotExists: "create",
        }))
          if (e.event === "error") throw new Error(`server run failed: ${JSON.stringify(e.data)}`);
      },
      local: async () => {
        for await (const e of exec.stream("three-steps", { threadId: randomUUID() }))
          if (e.type === "failed") throw new Error("in-process run failed");
      },
    },
  };
  // Warm-up: both sides load and compile the graph, open their databases, JIT the paths.
  for (let i = 0; i < 30; i++)
    for (const call of list(opts.calls)) {
      await sides[call].server();
      if (otherClient) await sides[call].server(otherClient);
      await sides[call].local();
    }
  for (const clients of list(opts.clients).map(Number))
    for (const call of list(opts.calls)) {
      const runs = {
        server: () => rate(() => sides[call].server(), clients, serve.pid),
        local: () => rate(sides[call].local, clients),
        ...(otherClient
          ? { other: () => rate(() => sides[call].server(otherClient), clients, other.pid) }
          : {}),
      };
      const names = Object.keys(runs);
      const got = Object.fromEntries(names.map((n) => [n, []]));
      // Each round starts with another side, so a busier moment hits each in turn.
      for (let r = 0; r < ROUNDS; r++)
        for (let i = 0; i < names.length; i++) {
          const n = names[(r + i) % names.length];
          got[n].push(await runs[n]());
        }
      const med = (n, k) => median(got[n].map((x) => x[k]));
      results.push({
        checkpointer,
        call,
        clients,
        server: med("server", "rate"),
        local: med("local", "rate"),
        serverCpu: med("server", "serverCpu"),
        clientCpu: med("server", "cpu"),
        localCpu: med("local", "cpu"),
        ...(otherClient
          ? { other: med("other", "rate"), otherCpu: med("other", "serverCpu") }
          : {}),
      });
    }
  await serve.stop();
  await other?.stop();
  await exec.close();
}
rmSync(dir, { recursive: true, force: true });

console.log(`three-steps, ${ROUNDS} rounds of ${SECONDS} s per side (medians, runs/s)\n`);
console.log(
  "| checkpointer | call | clients | server (SDK) | in-process | ratio | CPU ms/run: serve | SDK client | in-process |",
);
console.log(
  "| ------------ | ---- | ------- | ------------ | ---------- | ----- | ----------------- | ---------- | ---------- |",
);
for (const r of results)
  console.log(
    `| ${r.checkpointer} | ${r.call} | ${r.clients === 1 ? "1 (sequential)" : r.clients} | ${r.server.toFixed(1)} | ${r.local.toFixed(1)} | ${(r.server / r.local).toFixed(2)} | ${r.serverCpu.toFixed(2)} | ${r.clientCpu.toFixed(2)} | ${r.localCpu.toFixed(2)} |`,
  );
if (opts.compare) {
  console.log(`\nbeside the server of ${opts.compare} (same rounds):\n`);
  console.log(
    "| checkpointer | call | clients | that server | its ratio | its CPU ms/run | this server | ratio |",
  );
  console.log(
    "| ------------ | ---- | ------- | ----------- | --------- | -------------- | ----------- | ----- |",
  );
  for (const r of results)
    console.log(
      `| ${r.checkpointer} | ${r.call} | ${r.clients} | ${r.other.toFixed(1)} | ${(r.other / r.local).toFixed(2)} | ${r.otherCpu.toFixed(2)} | ${r.server.toFixed(1)} | ${(r.server / r.local).toFixed(2)} |`,
    );
}
console.log("\naim: ratio ≥ 0.8");
