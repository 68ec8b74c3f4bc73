#!/usr/bin/env node
/**
 * How long `compile()` takes for large specs, beside the floor: a hand-written LangGraph program
 * building the same graph. Run with `npm run bench:compile` (after `npm run build`). See
 * bench/README.md.
 *
 * Two shapes, each at 250, 500, 1,000 and 2,000 nodes, both with CEL in every node and edge
 * decision:
 *
 *   chain   `set` nodes in a row (node i: `n: ${{ state.n + <i+1> - <i> }}`); every other edge
 *           is a CEL `route` (`when: state.n >= -<i>` to the next node, `default: END`), the rest
 *           plain `to` edges
 *   fanout  a `set` node fanning out to N `set` nodes (`log: ${{ ["b<i>:" + string(state.n)] }}`,
 *           an appending channel), all joined into one `set` node
 *
 * Every expression's text is distinct, as in a real spec, and new in every round: no cache of
 * parsed or checked expressions can make one node's or one round's work serve the next.
 *
 * The floor is the same graph written with LangGraph's StateGraph: an Annotation state with the
 * same reducers, JS functions for the nodes and the route, the same addNode/addEdge/
 * addConditionalEdges calls, then compile(). The spec side is `compile(doc)` of a parsed document
 * (validation included, as users call it); parsing is outside the timing, printed apart.
 *
 * Spec and floor alternate within each round (which goes first too), after a warm-up, so a busier
 * moment of the shared machine hits both. It prints medians and min–max, the ratio to the floor,
 * and per-node times (linear growth: flat per node). It never fails on them.
 *
 * Options: --rounds N (default 7), --sizes 250,500,1000,2000, --shapes chain,fanout,
 * --only spec|hand (one side, to profile it with `node --cpu-prof`), --compare DIR (also time
 * the graphspec build in DIR — a checkout of another commit, built, its node_modules a link to
 * this one's, so both use the same LangGraph — as a third side in the same rounds: before and
 * after in one run).
 */
import { setMaxListeners } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { benchOptions } from "./options.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values: opts } = benchOptions(import.meta.url, {
  rounds: { type: "string", default: "7" },
  sizes: { type: "string", default: "250,500,1000,2000" },
  shapes: { type: "string", default: "chain,fanout" },
  only: { type: "string" },
  compare: { type: "string" },
});
// The warm-up runs each fan-out (both sides). LangGraph adds an abort listener per running task
// to its step's signal and removes it when the task ends: more than ten branches in one step are
// no leak, yet Node warned MaxListenersExceededWarning — the hand-written graph alone does too.
// The CLI lifts the limit for its own process (allowWideFanOut in src/cli/main.ts); so does this one.
setMaxListeners(0);
const ROUNDS = Number(opts.rounds);
const SIZES = opts.sizes.split(",").map(Number);
const SHAPES = opts.shapes.split(",");

const { compile, parseSpec } = await import(pathToFileURL(join(ROOT, "dist", "index.js")).href);
/** The other build's compile (--compare), fed the same parsed documents as this one's. */
const other = opts.compare
  ? (await import(pathToFileURL(join(resolve(opts.compare), "dist", "index.js")).href)).compile
  : undefined;

const dir = mkdtempSync(join(tmpdir(), "graphspec-compile-bench-"));
writeFileSync(join(dir, "package.json"), "{}\n");
const parse = (spec) =>
  parseSpec(
    JSON.stringify(spec),
    { file: "bench.json", root: dir, format: "json" },
    join(dir, "bench.json"),
  );

const nState = { n: { type: "integer", default: 0 } };
const logState = {
  n: { type: "integer", default: 0 },
  log: { type: "array", items: { type: "string" }, reducer: "append", default: [] },
};

/** The chain: s0 → s1 → … ; edge i is a route when i is odd. `salt` makes every expression new. */
function chainSpec(size, salt) {
  const spec = { version: 1, name: "chain", state: nState, nodes: {}, edges: [] };
  for (let i = 0; i < size; i++) {
    spec.nodes[`s${i}`] = {
      kind: "set",
      values: { n: `\${{ state.n + ${i + 1 + salt} - ${i + salt} }}` },
    };
    const from = i ? `s${i - 1}` : "START";
    spec.edges.push(
      i % 2
        ? { from, route: [{ when: `state.n >= ${-i - salt}`, to: `s${i}` }, { default: "END" }] }
        : { from, to: `s${i}` },
    );
  }
  spec.edges.push({ from: `s${size - 1}`, to: "END" });
  spec.limits = { recursion: size + 10 };
  return spec;
}

function chainHand(size) {
  const State = Annotation.Root({ n: Annotation({ reducer: (_a, b) => b, default: () => 0 }) });
  const g = new StateGraph(State);
  for (let i = 0; i < size; i++) {
    g.addNode(`s${i}`, (s) => ({ n: s.n + 1 }));
    const from = i ? `s${i - 1}` : START;
    const to = `s${i}`;
    if (i % 2) g.addConditionalEdges(from, (s) => (s.n >= -i ? to : END), [to, END]);
    else g.addEdge(from, to);
  }
  g.addEdge(`s${size - 1}`, END);
  return g.compile().withConfig({ recursionLimit: size + 10 });
}

/** The fan-out: src → b0 … b(N-2) → join. */
function fanoutSpec(size, salt) {
  const branches = Array.from({ length: size - 2 }, (_, i) => `b${i}`);
  const spec = {
    version: 1,
    name: "fanout",
    state: logState,
    nodes: {
      src: { kind: "set", values: { n: "${{ state.n + 1 }}" } },
      join: { kind: "set", values: { n: "${{ size(state.log) }}" } },
    },
    edges: [
      { from: "START", to: "src" },
      { from: "src", to: branches },
      { from: branches, to: "join" },
      { from: "join", to: "END" },
    ],
  };
  for (const b of branches) {
    spec.nodes[b] = { kind: "set", values: { log: `\${{ ["${b}:${salt}:" + string(state.n)] }}` } };
  }
  return spec;
}

function fanoutHand(size) {
  const branches = Array.from({ length: size - 2 }, (_, i) => `b${i}`);
  const State = Annotation.Root({
    n: Annotation({ reducer: (_a, b) => b, default: () => 0 }),
    log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const g = new StateGraph(State);
  g.addNode("src", (s) => ({ n: s.n + 1 }));
  g.addNode("join", (s) => ({ n: s.log.length }));
  for (const b of branches) g.addNode(b, (s) => ({ log: [`${b}:${s.n}`] }));
  g.addEdge(START, "src");
  for (const b of branches) g.addEdge("src", b);
  g.addEdge(branches, "join");
  g.addEdge("join", END);
  return g.compile();
}

const SHAPE = {
  chain: { spec: chainSpec, hand: chainHand, check: (o, size) => o.n === size },
  fanout: { spec: fanoutSpec, hand: fanoutHand, check: (o, size) => o.log.length === size - 2 },
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const ms = (x) => x.toFixed(1);
const range = (xs) => `${ms(Math.min(...xs))}–${ms(Math.max(...xs))}`;

/** CPU milliseconds of this process since `from` (user + system): less moved by other processes. */
const cpuSince = (from) => {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1000;
};

/**
 * A spec whose expressions no earlier compile in this process has seen: graphspec keeps checked
 * expressions per declarations (as `graphspec dev` reloads want), which would make every round
 * after the first cheaper than a new spec.
 */
let salt = 0;
const fresh = (shape, size) => shape.spec(size, ++salt * 10_000);

async function timeSpec(spec, compileWith = compile) {
  const t0 = performance.now();
  const doc = parse(spec);
  const t1 = performance.now();
  const c1 = process.cpuUsage();
  const graph = await compileWith(doc);
  return { parse: t1 - t0, compile: performance.now() - t1, cpu: cpuSince(c1), graph };
}

function timeHand(make, size) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const graph = make(size);
  return { compile: performance.now() - t0, cpu: cpuSince(c0), graph };
}

// Warm-up: both sides a few times per shape (a small size), and the results checked by running them.
for (const shape of SHAPES) {
  const s = SHAPE[shape];
  const size = 200;
  for (let i = 0; i < 3; i++) await timeSpec(fresh(s, size));
  for (let i = 0; other && i < 3; i++) await timeSpec(fresh(s, size), other);
  for (let i = 0; i < 3; i++) timeHand(s.hand, size);
  const spec = await timeSpec(fresh(s, size));
  const hand = timeHand(s.hand, size);
  for (const [side, graph] of [
    ["spec", spec.graph],
    ["hand", hand.graph],
  ]) {
    const out = await graph.invoke({}, { recursionLimit: size + 10 });
    if (!s.check(out, size)) throw new Error(`${shape} ${side}: ${JSON.stringify(out)}`);
  }
}

console.log(
  `compile time: ${ROUNDS} rounds per size, spec and hand-written LangGraph alternating (Node ${process.version})\n`,
);
console.log(
  "wall: median (min–max) and per node; cpu: median CPU time of the process (less moved by other work)\n",
);
if (other) console.log(`compare: the build in ${resolve(opts.compare)}\n`);
console.log(
  `shape   nodes | spec compile (ms)       per node   cpu | hand floor (ms)         per node   cpu | ratio | parse (ms)${other ? " | compare build (ms)      per node   cpu | spec÷compare" : ""}`,
);
for (const shape of SHAPES) {
  const s = SHAPE[shape];
  for (const size of SIZES) {
    const specTimes = [];
    const handTimes = [];
    const specCpu = [];
    const handCpu = [];
    const parseTimes = [];
    const otherTimes = [];
    const otherCpu = [];
    const all = other ? ["spec", "hand", "other"] : ["spec", "hand"];
    for (let r = 0; r < ROUNDS; r++) {
      // Which side goes first rotates from round to round.
      const sides = all.map((_, i) => all[(i + r) % all.length]);
      for (const side of sides) {
        if (opts.only && opts.only !== side && side !== "other") continue;
        if (side === "spec") {
          const t = await timeSpec(fresh(s, size));
          specTimes.push(t.compile);
          specCpu.push(t.cpu);
          parseTimes.push(t.parse);
        } else if (side === "other") {
          const t = await timeSpec(fresh(s, size), other);
          otherTimes.push(t.compile);
          otherCpu.push(t.cpu);
        } else {
          const t = timeHand(s.hand, size);
          handTimes.push(t.compile);
          handCpu.push(t.cpu);
        }
      }
    }
    const cell = (xs, cpu) =>
      xs.length
        ? `${ms(median(xs)).padStart(7)} (${range(xs)})`.padEnd(23) +
          `${(median(xs) / size).toFixed(3).padStart(9)}${ms(median(cpu)).padStart(7)}`
        : "—".padEnd(39);
    const ratio =
      specTimes.length && handTimes.length
        ? `${(median(specTimes) / median(handTimes)).toFixed(1)}x`
        : "—";
    const compared = other
      ? ` | ${cell(otherTimes, otherCpu)} | ${specTimes.length ? `${(median(specTimes) / median(otherTimes)).toFixed(2)}x` : "—"}`
      : "";
    console.log(
      `${shape.padEnd(7)} ${String(size).padStart(5)} | ${cell(specTimes, specCpu)} | ${cell(handTimes, handCpu)} | ${ratio.padStart(5)} | ${(parseTimes.length ? ms(median(parseTimes)) : "—").padStart(10)}${compared}`,
    );
  }
}
rmSync(dir, { recursive: true, force: true });
