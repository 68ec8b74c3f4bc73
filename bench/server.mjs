#!/usr/bin/env node
/**
 * What does the server cost? Run with `npm run bench:server` (after `npm run build`). See
 * bench/README.md.
 *
 * Runs per second of a 3-node graph (test/fixtures/server/graphs/three-steps.yaml), each run on a
 * new thread, on the same checkpointer kind (SQLite, then memory), side by side:
 *
 *   server      `graphspec serve --checkpointer <kind>` in a process of its own, as deployed,
 *               driven through the official SDK Client, one request a run:
 *               wait    `runs.wait(threadId, …, { ifNotExists: "create" })`
 *               stream  `runs.stream(threadId, …, { ifNotExists: "create" })`, read to its end
 *   in-process  what the aim is measured against: `compile(spec, { checkpointer })` in this
 *               process, as a hand-written program runs it — `invoke()` beside `wait`,
 *               `stream(…, { streamMode: "values" })` (what `runs.stream` sends) beside `stream`
 *   executor    the server's own engine in this process, without HTTP: `createExecutor()`'s
 *               `run()` beside `wait`, `stream()` of the `values` chunks beside `stream`
 *
 * each sequentially and with 8 concurrent clients (8 runs in flight). Sides alternate within each
 * round, each round starting with another, so a busier moment of the machine hits each in turn.
 * It prints medians, the ratios server ÷ in-process (aim: at least 0.8) and server ÷ executor
 * (what HTTP, the records and the second process cost), and the same ratio by CPU time —
 * in-process CPU ms per run ÷ (serve's + the SDK client's), steadier than runs/s on a busy
 * machine — with `uptime` before and after. It never fails on them.
 *
 * Options: --rounds N (default 5), --seconds S (per side per round, default 2),
 * --checkpointers sqlite,memory, --calls wait,stream, --clients 1,8, --warmup N (runs of each
 * side and call before measuring, default 300),
 * --root DIR (measure the graphspec build in that checkout instead of this one),
 * --compare DIR (also that checkout's `graphspec serve`, e.g. an older commit's, in the same
 * rounds: before and after under the same load),
 * --official (memory only: also the official LangGraph dev server, `@langchain/langgraph-cli dev`
 * offline, serving the same spec through `graphspec export langgraph`, in the same rounds),
 * --no-floor (leave out the floor: the in-process side's own program behind a bare `node:http`
 * server, bench/floor-server.mjs, measured in the same rounds by default — no server can answer
 * the SDK for less, so its ratio is the most any server could reach),
 * --prof DIR (the server runs with `--cpu-prof --cpu-prof-dir DIR`: its profile is written there
 * when it stops).
 */
import { execSync, spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { MemorySaver } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { Client } from "@langchain/langgraph-sdk";
import { benchOptions } from "./options.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const GRAPHS = join(ROOT, "test/fixtures/server/graphs");
const SPEC = join(GRAPHS, "three-steps.yaml");
const { values: opts } = benchOptions(import.meta.url, {
  rounds: { type: "string", default: "5" },
  seconds: { type: "string", default: "2" },
  checkpointers: { type: "string", default: "sqlite,memory" },
  calls: { type: "string", default: "wait,stream" },
  clients: { type: "string", default: "1,8" },
  warmup: { type: "string", default: "300" },
  prof: { type: "string" },
  root: { type: "string" },
  compare: { type: "string" },
  official: { type: "boolean", default: false },
  "no-floor": { type: "boolean", default: false },
});
// Another build of graphspec to measure (all sides), e.g. an older commit's checkout.
const BUILD = opts.root ? resolve(opts.root) : ROOT;
const ROUNDS = Number(opts.rounds);
const SECONDS = Number(opts.seconds);
const list = (s) => s.split(",").filter(Boolean);
const uptime = () => execSync("uptime", { encoding: "utf8" }).trim();
const loadBefore = uptime();

const { compile, createExecutor } = await import(
  pathToFileURL(join(BUILD, "dist", "index.js")).href
);
const dir = mkdtempSync(join(tmpdir(), "graphspec-bench-server-"));
// The servers started, stopped should the bench itself fail: not left serving after it.
const started = new Set();
process.on("exit", () => {
  for (const stop of started) stop();
});

/** Answers the URL a child process prints once it listens. */
const urlOf = (child) =>
  new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = /http:\/\/\S+/.exec(out);
      if (m) resolve(m[0]);
    });
    child.once("exit", (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });

/** A server in a process of its own (`node ARGS`), once it prints its URL: the URL, pid, a stop. */
async function startServer(args, cwd) {
  const child = spawn(process.execPath, args, { cwd, stdio: ["ignore", "pipe", "inherit"] });
  started.add(() => child.kill("SIGTERM"));
  const url = await urlOf(child);
  return {
    url,
    pid: child.pid,
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    },
  };
}

/** `graphspec serve` as deployed, in a process of its own. */
function startServe(checkpointer, build = BUILD) {
  const prof =
    opts.prof && build === BUILD ? ["--cpu-prof", "--cpu-prof-dir", resolve(opts.prof)] : [];
  return startServer(
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
    mkdtempSync(join(dir, `${checkpointer}-`)),
  );
}

/**
 * The floor (bench/floor-server.mjs): the in-process side's hand-written program behind a bare
 * `node:http` server, in a process of its own — what the HTTP transport and the SDK client cost
 * with no server work at all.
 */
function startFloor(checkpointer) {
  return startServer(
    [
      join(ROOT, "bench/floor-server.mjs"),
      BUILD,
      SPEC,
      checkpointer,
      join(dir, `floor-${checkpointer}.db`),
    ],
    dir,
  );
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/**
 * The official LangGraph dev server (in memory), offline, serving the spec as `graphspec export
 * langgraph` writes it: a reference of what the platform's own server does with the same graph.
 * Its CPU is not counted (the CLI runs the server in a child process of its own).
 */
async function startOfficial() {
  const out = join(dir, "official");
  const r = spawnSync(
    process.execPath,
    [join(BUILD, "bin/graphspec.js"), "export", "langgraph", SPEC, "--out", out],
    { cwd: ROOT, encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(`graphspec export failed:\n${r.stderr}`);
  // As `npm install` in the export would: graphspec (this build) and LangGraph.
  mkdirSync(join(out, "node_modules/@langchain"), { recursive: true });
  symlinkSync(BUILD, join(out, "node_modules/graphspec"));
  symlinkSync(
    join(ROOT, "node_modules/@langchain/langgraph"),
    join(out, "node_modules/@langchain/langgraph"),
  );
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      join(ROOT, "node_modules/@langchain/langgraph-cli/dist/cli/cli.mjs"),
      "dev",
      "--no-browser",
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
    ],
    {
      cwd: out,
      detached: true,
      stdio: ["ignore", "ignore", "ignore"],
      env: { ...process.env, LANGGRAPH_CLI_NO_ANALYTICS: "1" },
    },
  );
  // Its process group: the CLI runs the server as a child of its own.
  started.add(() => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (
      await fetch(`${url}/ok`).then(
        (res) => res.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error("the official dev server did not start in 120 s");
    await new Promise((res) => setTimeout(res, 250));
  }
  return {
    url,
    pid: undefined,
    stop: async () => {
      const gone = new Promise((res) => child.once("exit", res));
      process.kill(-child.pid, "SIGTERM");
      await gone;
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
  // The in-process sides may never leave the microtask queue for seconds: a connection the server
  // closed meanwhile (its 5 s keep-alive) is only seen closed once the event loop turns, and the
  // SDK does not retry a request sent on it ("other side closed").
  await new Promise((r) => setTimeout(r, 20));
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

/** A side driven through the SDK: `runs.wait`, or `runs.stream` read to its end. */
const sdkSides = (client) => ({
  wait: async () => {
    const v = await client.runs.wait(randomUUID(), "three-steps", {
      input: {},
      ifNotExists: "create",
    });
    if (v?.__error__) throw new Error(`server run failed: ${JSON.stringify(v.__error__)}`);
    if (v?.n !== 3) throw new Error(`server run answered ${JSON.stringify(v)}`);
  },
  stream: async () => {
    let last;
    for await (const e of client.runs.stream(randomUUID(), "three-steps", {
      input: {},
      ifNotExists: "create",
    })) {
      if (e.event === "error") throw new Error(`server run failed: ${JSON.stringify(e.data)}`);
      if (e.event === "values") last = e.data;
    }
    if (last?.n !== 3) throw new Error(`server stream ended at ${JSON.stringify(last)}`);
  },
});

const results = [];
for (const checkpointer of list(opts.checkpointers)) {
  const serve = await startServe(checkpointer);
  const other = opts.compare ? await startServe(checkpointer, resolve(opts.compare)) : undefined;
  const floor = !opts["no-floor"] ? await startFloor(checkpointer) : undefined;
  const official = opts.official && checkpointer === "memory" ? await startOfficial() : undefined;
  // A connection the server closed while idle (its 5 s keep-alive; each side idles while the others
  // run) may be reused as it closes: one retry, as the SDK (4 by default) would.
  const sdk = (s) => s && new Client({ apiUrl: s.url, callerOptions: { maxRetries: 1 } });
  const exec = createExecutor({
    dir: GRAPHS,
    checkpointer,
    ...(checkpointer === "sqlite" ? { sqlitePath: join(dir, `executor-${checkpointer}.db`) } : {}),
  });
  // The hand-written program: the compiled spec on LangGraph's own checkpointer of that kind.
  const saver =
    checkpointer === "sqlite"
      ? SqliteSaver.fromConnString(join(dir, `hand-${checkpointer}.db`))
      : new MemorySaver();
  const graph = await compile(SPEC, { checkpointer: saver });
  const config = () => ({ configurable: { thread_id: randomUUID() } });
  const local = {
    wait: async () => {
      const v = await graph.invoke({}, config());
      if (v.n !== 3) throw new Error(`in-process run answered ${JSON.stringify(v)}`);
    },
    stream: async () => {
      let last;
      for await (const v of await graph.stream({}, { ...config(), streamMode: "values" })) last = v;
      if (last?.n !== 3) throw new Error(`in-process stream ended at ${JSON.stringify(last)}`);
    },
  };
  const engine = {
    wait: async () => {
      const r = await exec.run("three-steps", { threadId: randomUUID() });
      if (r.status !== "completed") throw new Error(`executor run ${r.status}`);
    },
    stream: async () => {
      for await (const e of exec.stream("three-steps", {
        threadId: randomUUID(),
        // As the server asks for a `values` stream (run-registry.ts).
        graphStream: { modes: ["values"], nodeEventsOnly: true },
      }))
        if (e.type === "failed") throw new Error("executor run failed");
    },
  };
  const servers = {
    server: { calls: sdkSides(sdk(serve)), pid: serve.pid },
    ...(other ? { other: { calls: sdkSides(sdk(other)), pid: other.pid } } : {}),
    ...(floor ? { floor: { calls: sdkSides(sdk(floor)), pid: floor.pid } } : {}),
    ...(official ? { official: { calls: sdkSides(sdk(official)), pid: undefined } } : {}),
  };
  // Warm-up: every side loads and compiles the graph, opens its database, JITs its paths. A serve
  // process runs only its own requests (the in-process sides share LangGraph's code), and a
  // function called once per run is optimized only after hundreds of runs: 30 runs measured
  // serve's JIT and heap still growing (bench/README.md, issue 26 item 4).
  for (let i = 0; i < Number(opts.warmup); i++)
    for (const call of list(opts.calls)) {
      for (const s of Object.values(servers)) await s.calls[call]();
      await local[call]();
      await engine[call]();
    }
  for (const clients of list(opts.clients).map(Number))
    for (const call of list(opts.calls)) {
      const runs = {
        local: () => rate(local[call], clients),
        engine: () => rate(engine[call], clients),
        ...Object.fromEntries(
          Object.entries(servers).map(([n, s]) => [n, () => rate(s.calls[call], clients, s.pid)]),
        ),
      };
      const names = Object.keys(runs);
      const got = Object.fromEntries(names.map((n) => [n, []]));
      // Each round starts with another side, so a busier moment hits each in turn.
      for (let r = 0; r < ROUNDS; r++)
        for (let i = 0; i < names.length; i++) {
          const n = names[(r + i) % names.length];
          got[n].push(await runs[n]());
        }
      const med = (n, k) => (got[n] ? median(got[n].map((x) => x[k])) : undefined);
      results.push({
        checkpointer,
        call,
        clients,
        server: med("server", "rate"),
        local: med("local", "rate"),
        engine: med("engine", "rate"),
        serverCpu: med("server", "serverCpu"),
        clientCpu: med("server", "cpu"),
        localCpu: med("local", "cpu"),
        engineCpu: med("engine", "cpu"),
        other: med("other", "rate"),
        otherCpu: med("other", "serverCpu"),
        otherClientCpu: med("other", "cpu"),
        official: med("official", "rate"),
        floor: med("floor", "rate"),
        floorCpu: med("floor", "serverCpu"),
        floorClientCpu: med("floor", "cpu"),
      });
    }
  await serve.stop();
  await other?.stop();
  await official?.stop();
  await floor?.stop();
  await exec.close();
}
rmSync(dir, { recursive: true, force: true });

const f1 = (x) => x.toFixed(1);
const f2 = (x) => x.toFixed(2);
const who = (r) =>
  `| ${r.checkpointer} | ${r.call} | ${r.clients === 1 ? "1 (sequential)" : r.clients}`;
console.log(`three-steps, ${ROUNDS} rounds of ${SECONDS} s per side (medians)`);
console.log(`before: ${loadBefore}\nafter:  ${uptime()}\n`);
console.log(
  "| checkpointer | call | clients | server (SDK) runs/s | in-process | executor | ratio | ratio by CPU | server ÷ executor |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
for (const r of results)
  console.log(
    `${who(r)} | ${f1(r.server)} | ${f1(r.local)} | ${f1(r.engine)} | **${f2(r.server / r.local)}** | ${f2(r.localCpu / (r.serverCpu + r.clientCpu))} | ${f2(r.server / r.engine)} |`,
  );
console.log("\nCPU ms per run:\n");
console.log("| checkpointer | call | clients | serve | SDK client | in-process | executor |");
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const r of results)
  console.log(
    `${who(r)} | ${f2(r.serverCpu)} | ${f2(r.clientCpu)} | ${f2(r.localCpu)} | ${f2(r.engineCpu)} |`,
  );
if (opts.compare) {
  console.log(`\nbeside the server of ${opts.compare} (same rounds):\n`);
  console.log(
    "| checkpointer | call | clients | that server runs/s | its ratio | its ratio by CPU | its serve CPU ms | this server | ratio | ratio by CPU |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const r of results)
    console.log(
      `${who(r)} | ${f1(r.other)} | ${f2(r.other / r.local)} | ${f2(r.localCpu / (r.otherCpu + r.otherClientCpu))} | ${f2(r.otherCpu)} | ${f1(r.server)} | ${f2(r.server / r.local)} | ${f2(r.localCpu / (r.serverCpu + r.clientCpu))} |`,
    );
}
if (!opts["no-floor"]) {
  console.log(
    "\nbeside the floor (the in-process side's program behind bare node:http, same rounds):\n",
  );
  console.log(
    "| checkpointer | call | clients | floor runs/s | floor ÷ in-process | its server CPU ms | its SDK client CPU ms | graphspec serve ÷ floor |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const r of results)
    console.log(
      `${who(r)} | ${f1(r.floor)} | **${f2(r.floor / r.local)}** | ${f2(r.floorCpu)} | ${f2(r.floorClientCpu)} | ${f2(r.server / r.floor)} |`,
    );
}
if (opts.official) {
  console.log("\nbeside the official LangGraph dev server (in memory, same rounds):\n");
  console.log(
    "| checkpointer | call | clients | official runs/s | its ratio | graphspec serve | ratio |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- |");
  for (const r of results.filter((x) => x.official !== undefined))
    console.log(
      `${who(r)} | ${f1(r.official)} | ${f2(r.official / r.local)} | ${f1(r.server)} | ${f2(r.server / r.local)} |`,
    );
}
console.log(
  "\naim: ratio ≥ 0.8 (server ÷ in-process runs/s); ratio by CPU = in-process CPU ÷ (serve's + the SDK client's)",
);
