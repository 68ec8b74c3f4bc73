#!/usr/bin/env node
/**
 * What does compiling from a spec cost at run time? Run with `npm run bench:overhead` (after
 * `npm run build`). See bench/README.md.
 *
 * Each pair below is the same graph twice — compiled by graphspec from a spec, and written by
 * hand with LangGraph using the same node functions — in one process, after a warm-up, measured
 * two ways:
 *
 *   interleaved  one invocation of each side in turn (which goes first alternates), many times;
 *                the median of each side's invocations. This is how a server runs many graphs:
 *                both graphs' code (and LangGraph's, shared) runs alternately, so a cost one
 *                graph leaves for whoever runs next (a deopt, a collection) shows here.
 *   blocks       `--invokes` invocations of one side, then of the other, `--rounds` times; the
 *                median of the blocks' means.
 *
 * The ratio is spec ÷ hand, both measured in the same run. It never fails on them.
 *
 *   chain-20     20 `function` nodes in a row            vs the same functions in a StateGraph (aim ≤ 1.05)
 *   set-20       20 `set` nodes (a CEL value) in a row   vs 20 JS nodes                         (aim ≤ 1.10)
 *   fanout-10    a 10-way fan-out and join of functions  vs the same by hand                   (aim ≤ 1.05)
 *   cel-loop-20  a `set` node and a CEL `route` looping   vs a JS node and a JS conditional edge (aim ≤ 1.3)
 *
 * With a checkpointer, each invocation on a new thread: `createExecutor({ checkpointer })`'s
 * `run()` vs the hand-written graph compiled with the same saver class (LangGraph's MemorySaver or
 * SqliteSaver, the file in WAL with `synchronous = NORMAL` as graphspec opens it) and invoked
 * with a `thread_id`. Every step stores a checkpoint, so this is where graphspec's checkpoint
 * wrappers (state bound, serialization, CPU turns) show:
 *
 *   memory-chain-20    the chain-20 graph, its state one number
 *   memory-state-100k  the same 20 `function` nodes carrying a ~100 KB plain list in state
 *   sqlite-chain-20, sqlite-state-100k   the same on SQLite
 *
 * Then compile time for 10, 100 and 1,000-node specs (validate + lower + LangGraph's compile), to
 * show it grows linearly: time per node should stay flat.
 *
 * Options: --iterations N (interleaved invocations per side, default 400), --rounds N (default
 * 15), --invokes N (invocations per side per block, default 40), --only NAMES (comma-separated,
 * e.g. chain-20,set-20), --no-compile-time, --build DIR (measure the build in DIR — a checkout of
 * another commit, built, its node_modules a link to this one's — instead of this one),
 * --compare DIR (also that build's side, a third one in the same interleaving and blocks: before
 * and after under the same load), --checkpointed-iterations N (interleaved invocations per side
 * of the checkpointed pairs, default 100; their blocks are a quarter of --invokes).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Annotation, END, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import { benchOptions } from "./options.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values: opts } = benchOptions(import.meta.url, {
  iterations: { type: "string", default: "400" },
  rounds: { type: "string", default: "15" },
  invokes: { type: "string", default: "40" },
  only: { type: "string" },
  "no-compile-time": { type: "boolean", default: false },
  build: { type: "string" },
  compare: { type: "string" },
  "checkpointed-iterations": { type: "string", default: "100" },
});
const ITERATIONS = Number(opts.iterations);
const ROUNDS = Number(opts.rounds);
const INVOKES = Number(opts.invokes);

// Another build is its own graphspec on the same LangGraph (its node_modules links to this one's).
const BUILD = opts.build ? resolve(opts.build) : ROOT;
const load = (build) => import(pathToFileURL(join(build, "dist", "index.js")).href);
const { compile, createExecutor, parseSpec } = await load(BUILD);
// The build compared with, a third side; its documents are its own parser's.
const OTHER = opts.compare ? await load(resolve(opts.compare)) : undefined;

// A project of its own in a temp dir: module paths resolve inside it.
const dir = mkdtempSync(join(tmpdir(), "graphspec-overhead-"));
writeFileSync(join(dir, "package.json"), "{}\n");
const NODES = `export const inc = (state) => ({ n: state.n + 1 });
export const src = () => ({ log: ["src"] });
export const branch = () => ({ log: ["b"] });
export const join = () => ({ log: ["join"] });
`;
writeFileSync(join(dir, "nodes.mjs"), NODES);
const nodes = await import(pathToFileURL(join(dir, "nodes.mjs")).href);
const doc = (spec, parse = parseSpec) =>
  parse(
    JSON.stringify(spec),
    { file: "bench.json", root: dir, format: "json" },
    join(dir, "bench.json"),
  );

const fn = (exp) => ({ kind: "function", module: "./nodes.mjs", export: exp });
const nState = { n: { type: "integer", default: 0 } };
const logState = {
  log: { type: "array", items: { type: "string" }, reducer: "append", default: [] },
};
const N = Annotation.Root({ n: Annotation({ reducer: (_a, b) => b, default: () => 0 }) });
const Log = Annotation.Root({
  log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

/** 20 nodes in a row, each adding 1: `function` nodes calling `inc`, or `set` nodes with CEL. */
function chainPair(kind) {
  const spec = { version: 1, name: "chain", state: nState, nodes: {}, edges: [] };
  const node =
    kind === "function" ? fn("inc") : { kind: "set", values: { n: "${{ state.n + 1 }}" } };
  const handNode = kind === "function" ? nodes.inc : (s) => ({ n: s.n + 1 });
  let hand = new StateGraph(N);
  for (let i = 0; i < 20; i++) {
    spec.nodes[`s${i}`] = node;
    spec.edges.push({ from: i ? `s${i - 1}` : "START", to: `s${i}` });
    hand = hand.addNode(`s${i}`, handNode).addEdge(i ? `s${i - 1}` : START, `s${i}`);
  }
  spec.edges.push({ from: "s19", to: "END" });
  return { spec, hand: hand.addEdge("s19", END).compile(), input: {}, check: (o) => o.n === 20 };
}

function fanoutPair() {
  const branches = Array.from({ length: 10 }, (_, i) => `b${i}`);
  const spec = {
    version: 1,
    name: "fanout",
    state: logState,
    nodes: {
      src: fn("src"),
      join: fn("join"),
      ...Object.fromEntries(branches.map((b) => [b, fn("branch")])),
    },
    edges: [
      { from: "START", to: "src" },
      { from: "src", to: branches },
      { from: branches, to: "join" },
      { from: "join", to: "END" },
    ],
  };
  let hand = new StateGraph(Log).addNode("src", nodes.src).addNode("join", nodes.join);
  for (const b of branches) hand = hand.addNode(b, nodes.branch).addEdge("src", b);
  hand = hand.addEdge(START, "src").addEdge(branches, "join").addEdge("join", END);
  return { spec, hand: hand.compile(), input: {}, check: (o) => o.log.length === 12 };
}

function celPair() {
  const spec = {
    version: 1,
    name: "cel",
    state: nState,
    nodes: { inc: { kind: "set", values: { n: "${{ state.n + 1 }}" } } },
    edges: [
      { from: "START", to: "inc" },
      { from: "inc", route: [{ when: "state.n < 20", to: "inc" }, { default: "END" }] },
    ],
  };
  const hand = new StateGraph(N)
    .addNode("inc", (s) => ({ n: s.n + 1 }))
    .addEdge(START, "inc")
    .addConditionalEdges("inc", (s) => (s.n < 20 ? "inc" : END), ["inc", END])
    .compile();
  return { spec, hand, input: {}, check: (o) => o.n === 20 };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

const OPTIONS = { recursionLimit: 100 };

/** Interleaved: each iteration runs every side once, the first side rotating; ms per side. */
async function interleaved(sides, iterations) {
  const times = sides.map(() => []);
  for (let i = 0; i < iterations; i++) {
    for (let k = 0; k < sides.length; k++) {
      const j = (i + k) % sides.length;
      const t0 = performance.now();
      await sides[j]();
      times[j].push(performance.now() - t0);
    }
  }
  return times.map(median);
}

/** Blocks: `invokes` runs of one side, then the next, `ROUNDS` times; ms per run. */
async function blocks(sides, invokes) {
  const means = sides.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < sides.length; k++) {
      const j = (r + k) % sides.length;
      const t0 = performance.now();
      for (let i = 0; i < invokes; i++) await sides[j]();
      means[j].push((performance.now() - t0) / invokes);
    }
  }
  return means.map(median);
}

const PAIRS = [
  ["chain-20", () => chainPair("function"), 1.05],
  ["set-20", () => chainPair("set"), 1.1],
  ["fanout-10", fanoutPair, 1.05],
  ["cel-loop-20", celPair, 1.3],
].filter(([name]) => !opts.only || opts.only.split(",").includes(name));

/** A ~100 KB list of plain records, the same every run. */
const DOC = Array.from({ length: 800 }, (_, i) => ({
  id: i,
  title: `record ${i} of the state carried through every step`,
  tags: ["alpha", "beta", `t${i % 7}`],
  score: i / 7,
  open: i % 2 === 0,
}));

/** 20 `function` nodes in a row, with a checkpointer: a spec in the executor's folder and by hand. */
async function checkpointedPair(kind, big) {
  const specDir = mkdtempSync(join(dir, `${kind}-`));
  writeFileSync(join(specDir, "package.json"), "{}\n");
  writeFileSync(join(specDir, "nodes.mjs"), NODES);
  const state = {
    ...nState,
    ...(big ? { doc: { type: "array", items: { type: "object" } } } : {}),
  };
  const spec = { version: 1, name: "chain", state, nodes: {}, edges: [] };
  const State = Annotation.Root({
    n: Annotation({ reducer: (_a, b) => b, default: () => 0 }),
    ...(big ? { doc: Annotation({ reducer: (_a, b) => b, default: () => [] }) } : {}),
  });
  let graph = new StateGraph(State);
  for (let i = 0; i < 20; i++) {
    spec.nodes[`s${i}`] = fn("inc");
    spec.edges.push({ from: i ? `s${i - 1}` : "START", to: `s${i}` });
    graph = graph.addNode(`s${i}`, nodes.inc).addEdge(i ? `s${i - 1}` : START, `s${i}`);
  }
  spec.edges.push({ from: "s19", to: "END" });
  writeFileSync(join(specDir, "chain.json"), JSON.stringify(spec));
  const input = big ? { doc: DOC } : {};
  let saver;
  if (kind === "memory") saver = new MemorySaver();
  else {
    const { SqliteSaver } = await import("@langchain/langgraph-checkpoint-sqlite");
    saver = SqliteSaver.fromConnString(join(specDir, "hand.db"));
    saver.db.pragma("journal_mode = WAL");
    saver.db.pragma("synchronous = NORMAL");
  }
  const hand = graph.addEdge("s19", END).compile({ checkpointer: saver });
  let thread = 0;
  const sides = [
    async () => {
      const out = await hand.invoke(input, { configurable: { thread_id: `t${thread++}` } });
      if (out.n !== 20) throw new Error(`hand: unexpected output n=${out.n}`);
    },
  ];
  const closers = [];
  for (const [name, api] of [
    ["spec", { createExecutor }],
    ["compare", OTHER],
  ]) {
    if (!api) continue;
    const exec = api.createExecutor({
      dir: specDir,
      checkpointer: kind,
      ...(kind === "sqlite" ? { sqlitePath: join(specDir, `${name}.db`) } : {}),
    });
    closers.push(() => exec.close?.());
    sides.push(async () => {
      const r = await exec.run("chain", { threadId: `t${thread++}`, input });
      if (r.status !== "completed" || r.output?.n !== 20)
        throw new Error(`${name}: ${r.status} ${JSON.stringify(r.error ?? r.output?.n)}`);
    });
  }
  return { sides, close: async () => Promise.all(closers.map((c) => c())) };
}

const CHECKPOINTED = [
  ["memory-chain-20", () => checkpointedPair("memory", false)],
  ["memory-state-100k", () => checkpointedPair("memory", true)],
  ["sqlite-chain-20", () => checkpointedPair("sqlite", false)],
  ["sqlite-state-100k", () => checkpointedPair("sqlite", true)],
].filter(([name]) => !opts.only || opts.only.split(",").includes(name));

const fmt = (ms) => ms.toFixed(2).padStart(9);
const ratio = (x) => `${x.toFixed(2)}x`.padStart(7);
console.log(
  `run-time overhead: interleaved ${ITERATIONS} invocations per side; blocks ${ROUNDS} rounds × ${INVOKES}`,
);
if (opts.build) console.log(`the build in ${BUILD}`);
if (OTHER) console.log(`compared with the build in ${resolve(opts.compare)}`);
const header = (first) =>
  console.log(
    `\n${first.padEnd(19)} mode          hand (ms)  spec (ms)   ratio${OTHER ? "  compare (ms)   ratio" : ""}   aim`,
  );
const row = (name, mode, [h, s, o], aim) =>
  console.log(
    `${name.padEnd(19)} ${mode.padEnd(12)} ${fmt(h)}  ${fmt(s)}  ${ratio(s / h)}${
      OTHER ? `     ${fmt(o)}  ${ratio(o / h)}` : ""
    }   ${aim ? `≤ ${aim}` : ""}`,
  );

if (PAIRS.length) header("pair");
for (const [name, make, aim] of PAIRS) {
  const pair = make();
  const graphs = [pair.hand, await compile(doc(pair.spec))];
  if (OTHER) graphs.push(await OTHER.compile(doc(pair.spec, OTHER.parseSpec)));
  for (const g of graphs) {
    const out = await g.invoke(pair.input, OPTIONS);
    if (!pair.check(out)) throw new Error(`${name}: unexpected output ${JSON.stringify(out)}`);
  }
  const sides = graphs.map((g) => () => g.invoke(pair.input, OPTIONS));
  // Warm-up: every side, so that what is measured runs optimised code.
  for (let i = 0; i < 50; i++) for (const side of sides) await side();
  row(name, "interleaved", await interleaved(sides, ITERATIONS), aim);
  row(name, "blocks", await blocks(sides, INVOKES), aim);
}

if (CHECKPOINTED.length) header("with a checkpointer");
const CP_ITERATIONS = Number(opts["checkpointed-iterations"]);
for (const [name, make] of CHECKPOINTED) {
  const { sides, close } = await make();
  for (let i = 0; i < 20; i++) for (const side of sides) await side();
  row(name, "interleaved", await interleaved(sides, CP_ITERATIONS));
  row(name, "blocks", await blocks(sides, Math.max(1, Math.round(INVOKES / 4))));
  await close();
}

if (opts["no-compile-time"]) {
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
console.log(
  "\ncompile time (validate + lower + LangGraph compile), chains of `set` nodes with CEL values\n",
);
console.log("nodes   total (ms)  per node (ms)");
for (const size of [10, 100, 1000]) {
  const spec = { version: 1, name: "big", state: nState, nodes: {}, edges: [] };
  for (let i = 0; i < size; i++) {
    spec.nodes[`s${i}`] = { kind: "set", values: { n: "${{ state.n + 1 }}" } };
    spec.edges.push({ from: i ? `s${i - 1}` : "START", to: `s${i}` });
  }
  spec.edges.push({ from: `s${size - 1}`, to: "END" });
  spec.limits = { recursion: size + 10 };
  const times = [];
  for (let r = 0; r < (size >= 1000 ? 3 : 7); r++) {
    const d = doc(spec);
    const t0 = performance.now();
    await compile(d);
    times.push(performance.now() - t0);
  }
  const t = median(times);
  console.log(
    `${String(size).padStart(5)}   ${t.toFixed(1).padStart(10)}  ${(t / size).toFixed(3).padStart(13)}`,
  );
}
rmSync(dir, { recursive: true, force: true });
