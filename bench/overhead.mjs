#!/usr/bin/env node
/**
 * What does compiling from a spec cost at run time? Run with `npm run bench:overhead` (after
 * `npm run build`). See bench/README.md.
 *
 * Each pair below is the same graph twice — compiled by graphspec from a spec, and written by
 * hand with LangGraph — invoked alternately in one process after a warm-up, so a busier moment of
 * the machine hits both sides. It prints the medians and their ratio; it never fails on them.
 *
 *   chain-20     20 `function` nodes in a row            vs the same functions in a StateGraph (aim ≤ 1.05)
 *   fanout-10    a 10-way fan-out and join of functions  vs the same by hand                   (aim ≤ 1.05)
 *   cel-loop-20  a `set` node and a CEL `route` looping   vs a JS node and a JS conditional edge (aim ≤ 1.3)
 *
 * Then compile time for 10, 100 and 1,000-node specs (validate + lower + LangGraph's compile), to
 * show it grows linearly: time per node should stay flat.
 *
 * Options: --rounds N (default 15), --invokes N (invocations per side per round, default 40).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values: opts } = parseArgs({
  options: {
    rounds: { type: "string", default: "15" },
    invokes: { type: "string", default: "40" },
  },
});
const ROUNDS = Number(opts.rounds);
const INVOKES = Number(opts.invokes);

const { compile, parseSpec } = await import(pathToFileURL(join(ROOT, "dist", "index.js")).href);

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

function chainPair() {
  const spec = { version: 1, name: "chain", state: nState, nodes: {}, edges: [] };
  let hand = new StateGraph(N);
  for (let i = 0; i < 20; i++) {
    spec.nodes[`s${i}`] = fn("inc");
    spec.edges.push({ from: i ? `s${i - 1}` : "START", to: `s${i}` });
    hand = hand.addNode(`s${i}`, nodes.inc).addEdge(i ? `s${i - 1}` : START, `s${i}`);
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

async function timeInvokes(graph, input) {
  const t0 = performance.now();
  for (let i = 0; i < INVOKES; i++) await graph.invoke(input, { recursionLimit: 100 });
  return (performance.now() - t0) / INVOKES;
}

console.log(`run-time overhead: ${ROUNDS} rounds × ${INVOKES} invocations per side, alternating\n`);
console.log("pair          hand (ms)  spec (ms)  ratio   aim");
for (const [name, make, aim] of [
  ["chain-20", chainPair, 1.05],
  ["fanout-10", fanoutPair, 1.05],
  ["cel-loop-20", celPair, 1.3],
]) {
  const pair = make();
  const compiled = await compile(doc(pair.spec));
  for (const g of [compiled, pair.hand]) {
    const out = await g.invoke(pair.input, { recursionLimit: 100 });
    if (!pair.check(out)) throw new Error(`${name}: unexpected output ${JSON.stringify(out)}`);
  }
  for (let i = 0; i < 3; i++) {
    await timeInvokes(compiled, pair.input);
    await timeInvokes(pair.hand, pair.input);
  }
  const hand = [];
  const spec = [];
  for (let r = 0; r < ROUNDS; r++) {
    hand.push(await timeInvokes(pair.hand, pair.input));
    spec.push(await timeInvokes(compiled, pair.input));
  }
  const h = median(hand);
  const s = median(spec);
  console.log(
    `${name.padEnd(13)} ${h.toFixed(3).padStart(9)}  ${s.toFixed(3).padStart(9)}  ${(s / h).toFixed(2).padStart(5)}x  ≤ ${aim}`,
  );
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
