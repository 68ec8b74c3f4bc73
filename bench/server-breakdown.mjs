#!/usr/bin/env node
/**
 * Where a run through the server goes, layer by layer: CPU ms per run of the same 3-node graph
 * (test/fixtures/server/graphs/three-steps.yaml, a new thread each run, sequential), each layer
 * the one above it plus one part of what `graphspec serve` does. Run with
 * `npm run bench:server-breakdown` (after `npm run build`); see bench/README.md.
 *
 *   hand-written  `compile(spec, { checkpointer })` + `invoke()`: the aim's reference
 *   executor run  `createExecutor().run()`: thread claim, limits, secrets, the result read back
 *   executor stream   `stream()` of the `values` chunks the server asks for (run-registry.ts)
 *   run registry  the server's RunRegistry: run record, events kept for join, SSE mapping,
 *                 CPU turns; then the thread's state read for `runs.wait`'s answer
 *   app.fetch     the whole Hono app, without a socket: routing, auth and tenancy middleware,
 *                 body read and validation, assistant and thread look-ups, JSON answer
 *   node:http     the same app on Node's HTTP server (@hono/node-server, as serve.ts), in this
 *                 process, driven by an SDK Client in this process over loopback TCP: this
 *                 layer's CPU less the SDK client's (measured on the serve layer) is the server's
 *                 HTTP without a second process
 *   serve         `graphspec serve` in a process of its own, through the SDK: its CPU (/proc),
 *                 and the SDK client's in this process
 *
 * All in-process layers run in this process, alternating by round (medians of --rounds, each
 * --runs runs). Layers import the build's modules under dist/ (not the package entry): they are
 * the server's parts. Options: --checkpointer memory|sqlite (default memory), --rounds N
 * (default 7), --runs N (default 100), --warmup N (runs of each layer first, default 1000),
 * --root DIR (another checkout's build).
 */
import { execSync, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { MemorySaver } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { Client } from "@langchain/langgraph-sdk";
import { benchOptions } from "./options.mjs";

const HERE = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values: opts } = benchOptions(import.meta.url, {
  checkpointer: { type: "string", default: "memory" },
  rounds: { type: "string", default: "7" },
  runs: { type: "string", default: "100" },
  warmup: { type: "string", default: "1000" },
  root: { type: "string" },
});
const ROOT = opts.root ? resolve(opts.root) : HERE;
const KIND = opts.checkpointer;
const GRAPHS = join(HERE, "test/fixtures/server/graphs");
const SPEC = join(GRAPHS, "three-steps.yaml");
const dist = (m) => import(pathToFileURL(join(ROOT, "dist", m)).href);
const uptime = () => execSync("uptime", { encoding: "utf8" }).trim();
const loadBefore = uptime();

const { compile, createExecutor } = await dist("index.js");
const { folderCatalog } = await dist("server/graph-catalog.js");
const { memoryStore } = await dist("server/server-store.js");
const { sqliteSql, sqlStore } = await dist("server/sql-server-store.js");
const { RunRegistry } = await dist("server/run-registry.js");
const { serverApp } = await dist("server/app.js");
const { memoryAssistants, DEFAULT_ASSISTANT_CAPS } = await dist("server/assistant-store.js");
const { threadStatusMemo } = await dist("server/thread-status-memo.js");

const dir = mkdtempSync(join(tmpdir(), "graphspec-bench-breakdown-"));
const db = (name) => join(dir, `${name}.db`);
const executor = (name) =>
  createExecutor({
    dir: GRAPHS,
    checkpointer: KIND,
    ...(KIND === "sqlite" ? { sqlitePath: db(name) } : {}),
  });
const saver = KIND === "sqlite" ? SqliteSaver.fromConnString(db("hand")) : new MemorySaver();
const hand = await compile(SPEC, { checkpointer: saver });
const exec = executor("exec");

/** The server's parts as startServer puts them together (serve.ts), over their own executor. */
async function parts(name) {
  const x = executor(name);
  const graphs = folderCatalog(GRAPHS);
  const store = KIND === "sqlite" ? sqlStore(await sqliteSql(db(name))) : memoryStore();
  const runs = new RunRegistry(store, undefined, undefined, graphs.root, 8);
  return {
    exec: x,
    graphs,
    runs,
    store,
    assistants: memoryAssistants(),
    assistantCaps: DEFAULT_ASSISTANT_CAPS,
    queue: undefined,
    statuses: threadStatusMemo(),
    caps: { maxQueued: 100, maxRunning: 8 },
    auth: undefined,
    maxBodyBytes: 4 * 1024 * 1024,
    runLimits: { deadlineMs: 3_600_000, maxTokens: undefined },
    recordsKey: undefined,
    origins: { host: "127.0.0.1" },
  };
}
const reg = await parts("registry");
const app = serverApp(await parts("app"), "0");
// The same app again on Node's HTTP server in this process, as startServer listens (serve.ts).
const { serve: listen } = await import(
  pathToFileURL(join(ROOT, "node_modules/@hono/node-server/dist/index.mjs")).href
);
const httpApp = serverApp(await parts("http"), "0");
const httpServer = await new Promise((ok) => {
  const s = listen({ fetch: httpApp.fetch, hostname: "127.0.0.1", port: 0 }, () => ok(s));
});
const httpClient = new Client({
  apiUrl: `http://127.0.0.1:${httpServer.address().port}`,
  callerOptions: { maxRetries: 0 },
});

const child = spawn(
  process.execPath,
  [
    join(ROOT, "bin/graphspec.js"),
    "serve",
    GRAPHS,
    "--no-auth",
    "--checkpointer",
    KIND,
    "--port",
    "0",
    "--host",
    "127.0.0.1",
  ],
  { cwd: mkdtempSync(join(dir, "serve-")), stdio: ["ignore", "pipe", "inherit"] },
);
const url = await new Promise((ok, fail) => {
  let out = "";
  child.stdout.on("data", (d) => {
    out += d;
    const m = /http:\/\/\S+/.exec(out);
    if (m) ok(m[0]);
  });
  child.once("exit", (code) => fail(new Error(`serve exited with ${code}`)));
});
const client = new Client({ apiUrl: url, callerOptions: { maxRetries: 0 } });
const serveCpu = () => {
  const stat = readFileSync(`/proc/${child.pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
};

const body = JSON.stringify({ assistant_id: "three-steps", input: {}, if_not_exists: "create" });
const check = (v) => {
  if (v?.n !== 3) throw new Error(`a run answered ${JSON.stringify(v)}`);
};
const layers = {
  "hand-written": async () =>
    check(await hand.invoke({}, { configurable: { thread_id: randomUUID() } })),
  "executor run": async () =>
    check((await exec.run("three-steps", { threadId: randomUUID() })).output),
  "executor stream": async () => {
    for await (const e of exec.stream("three-steps", {
      threadId: randomUUID(),
      graphStream: { modes: ["values"], nodeEventsOnly: true },
    }))
      if (e.type === "failed") throw new Error("executor stream failed");
  },
  "run registry": async () => {
    const thread = randomUUID();
    const live = await reg.runs.start({
      exec: reg.exec,
      graphPath: SPEC,
      assistantId: "three-steps",
      storedThreadId: thread,
      clientThreadId: thread,
      tenant: undefined,
      options: { input: {}, deadline: 3_600_000 },
      modes: ["values"],
      subgraphs: false,
      metadata: {},
    });
    await live.done;
    check((await reg.exec.state(thread, SPEC)).values);
  },
  "app.fetch": async () => {
    const res = await app.fetch(
      new Request(`http://127.0.0.1/threads/${randomUUID()}/runs/wait`, {
        method: "POST",
        headers: { "content-type": "application/json", host: "127.0.0.1" },
        body,
      }),
    );
    check(await res.json());
  },
  "node:http": async () =>
    check(
      await httpClient.runs.wait(randomUUID(), "three-steps", {
        input: {},
        ifNotExists: "create",
      }),
    ),
  serve: async () =>
    check(
      await client.runs.wait(randomUUID(), "three-steps", { input: {}, ifNotExists: "create" }),
    ),
};
const ownCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const RUNS = Number(opts.runs);
const names = Object.keys(layers);
const got = Object.fromEntries(names.map((n) => [n, []]));
// Warm-up: the serve process runs only its own layer, while the in-process layers share most of
// their code (LangGraph's, the executor's): a function called once per run is optimized after
// hundreds of runs, so too short a warm-up measures serve's JIT and heap still growing (its CPU
// per run fell from 16 to 10 ms over its first 1,000 runs at load 28), not a server's steady state.
for (const run of Object.values(layers)) for (let i = 0; i < Number(opts.warmup); i++) await run();
for (let r = 0; r < Number(opts.rounds); r++)
  for (let i = 0; i < names.length; i++) {
    const n = names[(r + i) % names.length];
    const own = ownCpu();
    const theirs = serveCpu();
    for (let k = 0; k < RUNS; k++) await layers[n]();
    got[n].push({ own: (ownCpu() - own) / RUNS, serve: (serveCpu() - theirs) / RUNS });
  }
child.kill("SIGTERM");
await new Promise((r) => child.once("exit", r));
httpServer.closeAllConnections?.();
await new Promise((r) => httpServer.close(r));
await Promise.all([exec.close(), reg.exec.close()]);
rmSync(dir, { recursive: true, force: true });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const med = (n, k) => median(got[n].map((x) => x[k]));
console.log(
  `three-steps, ${KIND}, sequential: CPU ms per run (medians of ${opts.rounds} rounds of ${RUNS})`,
);
console.log(`before: ${loadBefore}\nafter:  ${uptime()}\n`);
console.log("| layer | CPU ms/run | more than the layer above |");
console.log("| --- | --- | --- |");
let above;
const sdk = med("serve", "own");
for (const n of names.slice(0, -1)) {
  // node:http: the server and the SDK client both in this process; the client's share is the
  // serve layer's (the same client code and requests).
  const v = n === "node:http" ? med(n, "own") - sdk : med(n, "own");
  const what = n === "node:http" ? " (HTTP, loopback, this process)" : "";
  console.log(
    `| ${n === "node:http" ? "node:http (less the SDK client)" : n} | ${v.toFixed(2)} | ${above === undefined ? "" : (v - above).toFixed(2)}${what} |`,
  );
  above = v;
}
const serve = med("serve", "serve");
console.log(
  `| serve (its process) | ${serve.toFixed(2)} | ${(serve - above).toFixed(2)} (a process of its own) |`,
);
console.log(`| SDK client (this process) | ${sdk.toFixed(2)} | |`);
console.log(
  `| serve + SDK client | ${(serve + sdk).toFixed(2)} | ${((serve + sdk) / med("hand-written", "own")).toFixed(2)}× hand-written |`,
);
