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
 * Then compile time for 10, 100 and 1,000-node specs (validate + lower + LangGraph's compile), to
 * show it grows linearly: time per node should stay flat.
 *
 * Options: --iterations N (interleaved invocations per side, default 400), --rounds N (default
 * 15), --invokes N (invocations per side per block, default 40), --only NAMES (comma-separated,
 * e.g. chain-20,set-20), --no-compile-time, --build DIR (measure the build in DIR — a checkout of
 * another commit, built, its node_modules a link to this one's — instead of this one).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { benchOptions } from "./options.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values: opts } = benchOptions(import.meta.url, {
  iterations: { type: "string", default: "400" },
  rounds: { type: "string", default: "15" },
  invokes: { type: "string", default: "40" },
  only: { type: "string" },
  "no-compile-time": { type: "boolean", default: false },
  build: { type: "string" },
});
const ITERATIONS = Number(opts.iterations);
const ROUNDS = Number(opts.rounds);
const INVOKES = Number(opts.invokes);

// Another build is its own graphspec on the same LangGraph (its node_modules links to this one's).
const BUILD = opts.build ? resolve(opts.build) : ROOT;
const { compile, parseSpec } = await import(pathToFileURL(join(BUILD, "dist", "index.js")).href);

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
const doc = (spec) =>
  parseSpec(
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

/** Interleaved: each iteration invokes every side once, the first side rotating; ms per side. */
async function interleaved(sides, input) {
  const times = sides.map(() => []);
  for (let i = 0; i < ITERATIONS; i++) {
    for (let k = 0; k < sides.length; k++) {
      const j = (i + k) % sides.length;
      const t0 = performance.now();
      await sides[j].invoke(input, OPTIONS);
      times[j].push(performance.now() - t0);
    }
  }
  return times.map(median);
}

/** Blocks: `INVOKES` invocations of one side, then the next, `ROUNDS` times; ms per invocation. */
async function blocks(sides, input) {
  const means = sides.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < sides.length; k++) {
      const j = (r + k) % sides.length;
      const t0 = performance.now();
      for (let i = 0; i < INVOKES; i++) await sides[j].invoke(input, OPTIONS);
      means[j].push((performance.now() - t0) / INVOKES);
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

const fmt = (ms) => ms.toFixed(2).padStart(9);
const ratio = (x) => `${x.toFixed(2)}x`.padStart(7);
console.log(
  `run-time overhead: interleaved ${ITERATIONS} invocations per side; blocks ${ROUNDS} rounds × ${INVOKES}`,
);
if (opts.build) console.log(`the build in ${BUILD}`);
console.log("\npair          mode          hand (ms)  spec (ms)   ratio   aim");
for (const [name, make, aim] of PAIRS) {
  const pair = make();
  const sides = [pair.hand, await compile(doc(pair.spec))];
  for (const g of sides) {
    const out = await g.invoke(pair.input, OPTIONS);
    if (!pair.check(out)) throw new Error(`${name}: unexpected output ${JSON.stringify(out)}`);
  }
  // Warm-up: both ways, so that what is measured runs optimised code.
  for (let i = 0; i < 50; i++) for (const g of sides) await g.invoke(pair.input, OPTIONS);
  for (const [mode, measure] of [
    ["interleaved", interleaved],
    ["blocks", blocks],
  ]) {
    const [h, s] = await measure(sides, pair.input);
    console.log(
      `${name.padEnd(13)} ${mode.padEnd(12)} ${fmt(h)}  ${fmt(s)}  ${ratio(s / h)}   ≤ ${aim}`,
    );
  }
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
