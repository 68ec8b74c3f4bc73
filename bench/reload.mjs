#!/usr/bin/env node --expose-gc
/**
 * How fast does `graphspec dev` bring a change in? Run with `npm run bench:reload` (after
 * `npm run build`). See bench/README.md.
 *
 * 1. Reload: over N edits (default 50), alternately of a spec and of the module it calls, the time
 *    from the file's save to a run answering with the new version, through createDevExecutor (the
 *    watcher, the debounce, the re-check, the re-compile and one run). Median and p95.
 * 2. Baseline: what a reload by restart costs — spawning our own CLI to answer one run of the same
 *    graph (`graphspec run`), the way a dev server that restarts its process would. Median, and the
 *    ratio restart ÷ reload.
 * 3. Memory: heap after many module edits. Each distinct content of a module is one module record
 *    that ESM keeps for the process's life; a content seen before is reused. It prints the heap
 *    growth per new content, and for edits that cycle through contents already loaded.
 *
 * Options: --edits N (default 50), --spawns N (default 7), --heap-edits N (default 200).
 * It never fails on the numbers.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values: opts } = parseArgs({
  options: {
    edits: { type: "string", default: "50" },
    spawns: { type: "string", default: "7" },
    "heap-edits": { type: "string", default: "200" },
  },
});
const EDITS = Number(opts.edits);
const SPAWNS = Number(opts.spawns);
const HEAP_EDITS = Number(opts["heap-edits"]);

const { createDevExecutor } = await import(pathToFileURL(join(ROOT, "dist", "index.js")).href);

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

// 1. Reload: save → a run answering with the new version.
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
let specMark = "s0";
let moduleMark = "m0";
const reloads = [];
for (let i = 1; i <= EDITS; i++) {
  const reloaded = new Promise((r) => {
    waiting = r;
  });
  const t0 = performance.now();
  if (i % 2) {
    specMark = `s${i}`;
    writeFileSync(specPath, spec(specMark));
  } else {
    moduleMark = `m${i}`;
    writeFileSync(modulePath, mod(moduleMark));
  }
  await reloaded;
  const marks = await run();
  const t1 = performance.now();
  if (marks.join() !== [specMark, moduleMark, specMark].join())
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

// 2. Baseline: a restart of our own CLI answering one run.
const restarts = [];
for (let i = 0; i < SPAWNS; i++) {
  const t0 = performance.now();
  const r = spawnSync(
    process.execPath,
    [join(ROOT, "bin", "graphspec.js"), "run", "marking", "--checkpointer", "memory", "--json"],
    { cwd: project, encoding: "utf8" },
  );
  restarts.push(performance.now() - t0);
  if (r.status !== 0) throw new Error(`graphspec run failed: ${r.stderr}`);
}
rmSync(project, { recursive: true, force: true });

console.log(
  `reload: ${EDITS} edits (spec and module alternating), save → a run answering the new version`,
);
console.log(
  `  median ${ms(median(reloads))}   p95 ${ms(p95(reloads))}   max ${ms(Math.max(...reloads))}`,
);
console.log(
  `restart baseline: our CLI process answering one run (\`graphspec run\`), ${SPAWNS} spawns`,
);
console.log(`  median ${ms(median(restarts))}`);
console.log(
  `ratio restart ÷ reload (medians): ${(median(restarts) / median(reloads)).toFixed(1)}x`,
);
const kb = (b) => `${(b / 1024).toFixed(0)} KiB`;
console.log(`memory${globalThis.gc ? "" : " (run with --expose-gc for steadier numbers)"}:`);
console.log(
  `  ${HEAP_EDITS} edits, each a new content: +${versionsFresh - versionsBefore} module versions, heap ${kb(afterFresh - before)} (${kb((afterFresh - before) / HEAP_EDITS)} per version)`,
);
console.log(
  `  ${HEAP_EDITS} more edits cycling through 10 contents already loaded: +${versionsCycle - versionsFresh} module versions, heap ${kb(afterCycle - afterFresh)}`,
);
