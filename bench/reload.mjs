#!/usr/bin/env node --expose-gc
/**
 * How fast does `graphspec dev` bring a change in? Run with `npm run bench:reload` (after
 * `npm run build`). See bench/README.md.
 *
 * 1. Over the SDK: `graphspec dev` (the built CLI, a process of its own) and the official
 *    `@langchain/langgraph-sdk` Client. Over N edits (default 50), alternately of a spec and of the
 *    module it calls, the time from the file's save to the new version answering a `runs.wait`:
 *    the watcher, the debounce, the re-check and re-compile (until the server prints its
 *    `reloaded` line), then one run through HTTP. Median and p95, and where the time goes.
 * 2. In process: the same through createDevExecutor and `executor.run` (no HTTP, no process).
 * 3. Baseline: a reload by restart, the way the official dev server reloads — `graphspec dev`
 *    spawned until it answers one run over the SDK. Median, and the ratio restart ÷ reload.
 * 4. Memory: heap after many module edits. Each distinct content of a module is one module record
 *    that ESM keeps for the process's life; a content seen before is reused. It prints the heap
 *    growth per new content, and for edits that cycle through contents already loaded.
 *
 * Options: --edits N (default 50), --spawns N (default 7), --heap-edits N (default 200).
 * It never fails on the numbers.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { benchOptions } from "./options.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values: opts } = benchOptions(import.meta.url, {
  edits: { type: "string", default: "50" },
  spawns: { type: "string", default: "7" },
  "heap-edits": { type: "string", default: "200" },
});
const EDITS = Number(opts.edits);
const SPAWNS = Number(opts.spawns);
const HEAP_EDITS = Number(opts["heap-edits"]);

const { createDevExecutor } = await import(pathToFileURL(join(ROOT, "dist", "index.js")).href);
const { Client } = await import("@langchain/langgraph-sdk");
const BIN = join(ROOT, "bin", "graphspec.js");

const project = mkdtempSync(join(tmpdir(), "graphspec-bench-reload-"));
writeFileSync(join(project, "package.json"), '{ "type": "module" }\n');
const graphs = join(project, "graphs");
mkdirSync(graphs);
const specPath = join(graphs, "marking.yaml");
const modulePath = join(graphs, "mark.mjs");
const spec = (mark) => `version: 1
name: marking
state:
  marks: { type: array, items: { type: string }, reducer: append, default: [] }
nodes:
  first: { kind: set, values: { marks: [${mark}] } }
  middle: { kind: function, module: ./mark.mjs, writes: [marks] }
  last: { kind: set, values: { marks: [${mark}] } }
edges:
  - { from: START, to: first }
  - { from: first, to: middle }
  - { from: middle, to: last }
  - { from: last, to: END }
`;
const mod = (mark) => `export default () => ({ marks: ["${mark}"] });\n`;
writeFileSync(specPath, spec("s0"));
writeFileSync(modulePath, mod("m0"));

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
};
const p95 = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)];
};
const ms = (x) => `${x.toFixed(1)} ms`;

/** `graphspec dev` in the project: its URL, its stderr so far, and `next(word)` to wait for a line. */
const startDev = () =>
  new Promise((resolveStart, reject) => {
    const child = spawn(process.execPath, [BIN, "dev", "--port", "0", "--checkpointer", "memory"], {
      cwd: project,
    });
    let out = "";
    let err = "";
    let waiter;
    child.stderr.on("data", (b) => {
      err += b;
      waiter?.();
    });
    const count = (word) => err.split(word).length - 1;
    /** Resolves with stderr once one more `word` than now was printed. */
    const next = (word) => {
      const seen = count(word);
      return new Promise((r) => {
        waiter = () => {
          if (count(word) > seen) {
            waiter = undefined;
            r(err);
          }
        };
      });
    };
    child.stdout.on("data", (b) => {
      out += b;
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(out)?.[0];
      if (url) resolveStart({ child, url, next });
    });
    child.once("exit", (code) => reject(new Error(`graphspec dev exited (${code}): ${err}`)));
  });
const stopDev = (dev) =>
  new Promise((r) => {
    dev.child.removeAllListeners("exit");
    dev.child.once("exit", r);
    dev.child.kill("SIGTERM");
  });

const edit = (i) => {
  if (i % 2) {
    specMark = `s${i}`;
    writeFileSync(specPath, spec(specMark));
  } else {
    moduleMark = `m${i}`;
    writeFileSync(modulePath, mod(moduleMark));
  }
};
const expected = () => [specMark, moduleMark, specMark].join();
let specMark = "s0";
let moduleMark = "m0";

// 1. Over the SDK: save → the server's `reloaded` line → a runs.wait answering the new version.
const server = await startDev();
const client = new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
const sdkRun = async () => (await client.runs.wait(null, "marking", { input: {} })).marks;
for (let i = 0; i < 5; i++) await sdkRun();
const sdk = { total: [], toLine: [], built: [], run: [] };
for (let i = 1; i <= EDITS; i++) {
  const reloaded = server.next("reloaded graphs/");
  const t0 = performance.now();
  edit(i);
  const err = await reloaded;
  const t1 = performance.now();
  const marks = await sdkRun();
  const t2 = performance.now();
  if (marks.join() !== expected())
    throw new Error(`edit ${i}: the server answered ${marks}, not the new version`);
  sdk.total.push(t2 - t0);
  sdk.toLine.push(t1 - t0);
  sdk.run.push(t2 - t1);
  sdk.built.push(Number(/\(version \d+, (\d+) ms\)\n?$/.exec(err.trimEnd())?.[1] ?? Number.NaN));
}
await stopDev(server);

// 2. In process: save → a run answering with the new version, through createDevExecutor.
let waiting;
const dev = await createDevExecutor({
  dir: graphs,
  checkpointer: "memory",
  onReload: (e) => {
    if (e.type === "rejected") console.error(e.message);
    if (e.type === "reloaded" || e.type === "rejected") waiting?.(e);
  },
});
const run = async () => (await dev.executor.run("marking")).output.marks;
await run();
const reloads = [];
for (let i = EDITS + 1; i <= 2 * EDITS; i++) {
  const reloaded = new Promise((r) => {
    waiting = r;
  });
  const t0 = performance.now();
  edit(i);
  await reloaded;
  const marks = await run();
  const t1 = performance.now();
  if (marks.join() !== expected())
    throw new Error(`edit ${i}: the run answered ${marks}, not the new version`);
  reloads.push(t1 - t0);
}

// 3. Memory: module versions held, heap per new content, heap for contents seen before.
const heap = () => {
  globalThis.gc?.();
  globalThis.gc?.();
  return process.memoryUsage().heapUsed;
};
const editModule = async (mark) => {
  const reloaded = new Promise((r) => {
    waiting = r;
  });
  moduleMark = mark;
  writeFileSync(modulePath, mod(mark));
  await reloaded;
};
const before = heap();
const versionsBefore = dev.moduleVersionCount();
for (let i = 0; i < HEAP_EDITS; i++) await editModule(`fresh-${i}`);
const afterFresh = heap();
const versionsFresh = dev.moduleVersionCount();
for (let i = 0; i < HEAP_EDITS; i++) await editModule(`fresh-${i % 10}`);
const afterCycle = heap();
const versionsCycle = dev.moduleVersionCount();
await dev.close();

// 3. Baseline: a reload by restart — `graphspec dev` started until it answers one run over the SDK.
const restarts = [];
for (let i = 0; i < SPAWNS; i++) {
  const t0 = performance.now();
  const restarted = await startDev();
  const c = new Client({ apiUrl: restarted.url, callerOptions: { maxRetries: 0 } });
  const marks = (await c.runs.wait(null, "marking", { input: {} })).marks;
  restarts.push(performance.now() - t0);
  if (marks.join() !== expected()) throw new Error(`restart answered ${marks}`);
  await stopDev(restarted);
}
rmSync(project, { recursive: true, force: true });

const line = (label, xs) =>
  console.log(
    `  ${label.padEnd(44)} median ${ms(median(xs)).padStart(9)}   p95 ${ms(p95(xs)).padStart(9)}   max ${ms(Math.max(...xs)).padStart(9)}`,
  );
console.log(
  `reload over the SDK: ${EDITS} edits (spec and module alternating), \`graphspec dev\` + SDK Client`,
);
line("save → new version answering runs.wait", sdk.total);
line("  save → the server's `reloaded` line", sdk.toLine);
line("    of which first change seen → swap", sdk.built);
line("  runs.wait after the line", sdk.run);
console.log(`reload in process: ${EDITS} edits through createDevExecutor and executor.run`);
line("save → a run answering the new version", reloads);
console.log(
  `restart baseline: \`graphspec dev\` spawned until it answers one runs.wait, ${SPAWNS} spawns`,
);
line("spawn → first answer", restarts);
console.log(
  `ratio restart ÷ reload over the SDK (medians): ${(median(restarts) / median(sdk.total)).toFixed(1)}x`,
);
const kb = (b) => `${(b / 1024).toFixed(0)} KiB`;
console.log(`memory${globalThis.gc ? "" : " (run with --expose-gc for steadier numbers)"}:`);
console.log(
  `  ${HEAP_EDITS} edits, each a new content: +${versionsFresh - versionsBefore} module versions, heap ${kb(afterFresh - before)} (${kb((afterFresh - before) / HEAP_EDITS)} per version)`,
);
console.log(
  `  ${HEAP_EDITS} more edits cycling through 10 contents already loaded: +${versionsCycle - versionsFresh} module versions, heap ${kb(afterCycle - afterFresh)}`,
);
