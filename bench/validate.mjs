#!/usr/bin/env node
/**
 * How fast is `graphspec validate`? Run with `npm run bench` (after `npm run build`). See bench/README.md.
 *
 * 1. The corpus: 1,000 copies of bench/nine-nodes.yaml (9 nodes of most kinds, templates, a
 *    route, a fan-out and join, a map fan-out, tool and function modules) in `graphs/` of a temp
 *    project, beside the modules it names. `--varied` uses 1,000 generated specs of 10–60 nodes
 *    instead (seeded: the same on every run).
 * 2. In one process, alternating passes over the same files after a warm-up:
 *    floor     = read + YAML parse + the precompiled Ajv schema validator, one file after another;
 *    graphspec = the CLI's `validate graphs --format json`, run in this process: listing the
 *                files, reading, every rule, positions, suppressions, the output.
 *    Prints the medians and their ratio (the aim is within 2x of the floor), in wall time and in
 *    CPU time. It never fails on them.
 * 3. CLI cold start: `node bin/graphspec.js validate one.yaml` (a copy of bench/nine-nodes.yaml,
 *    naming three TypeScript modules) spawned N times, interleaved with `node -e 0` and
 *    `graphspec --version`: wall and CPU time of each process; and the same validate with the
 *    compile caches off (NODE_DISABLE_COMPILE_CACHE=1): a first run, as in a fresh CI container.
 *
 * Options: --specs N (default 1000), --passes N (default 5), --spawns N (default 15),
 * --varied (the generated corpus), --only cold|corpus (one part), --keep (leave the corpus),
 * --compare DIR (the cold start also spawns the CLI of the build in DIR — a checkout of another
 * commit, built, its node_modules a link to this one's — in the same rounds: before and after in
 * one run). Run the bench with another Node (`/path/to/node bench/validate.mjs`) to time that Node.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Document, parse as parseYaml, visit } from "yaml";
import { benchOptions } from "./options.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values: opts } = benchOptions(import.meta.url, {
  specs: { type: "string", default: "1000" },
  passes: { type: "string", default: "5" },
  spawns: { type: "string", default: "15" },
  keep: { type: "boolean", default: false },
  varied: { type: "boolean", default: false },
  only: { type: "string" },
  compare: { type: "string" },
});
if (opts.only !== undefined && opts.only !== "cold" && opts.only !== "corpus") {
  console.error('bench: --only takes "cold" or "corpus"');
  process.exit(2);
}
if (!existsSync(join(ROOT, "dist", "index.js"))) {
  console.error("bench: dist/ is missing; run `npm run build` first");
  process.exit(2);
}
const { main } = await import(join(ROOT, "dist", "cli", "main.js"));
const { default: schemaValidator } = await import(
  join(ROOT, "dist", "spec", "schema-validator.generated.js")
);

// ---------- corpus ----------

/** mulberry32: a small seeded PRNG, so the corpus is the same on every machine. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One valid spec of `size` nodes: a chain of blocks (a node, a route, a fan-out and join, a map
 * fan-out) so every node is reachable and reaches END. Parallel branches write only channels
 * with reducers (append, sum, messages), so no `parallel-write` is due.
 */
function generateSpec(index, random) {
  const pick = (xs) => xs[Math.floor(random() * xs.length)];
  const size = 10 + Math.floor(random() * 51);
  const state = {
    messages: { type: "messages" },
    ticket: { type: "string", default: "" },
    count: { type: "integer", reducer: "sum", default: 0 },
    notes: { type: "array", items: { type: "string" }, reducer: "append", default: [] },
    topics: { type: "array", items: { type: "string" }, default: [] },
    topic: { type: "string", default: "" },
    approved: { type: "boolean", default: false },
    priority: { type: "string", enum: ["low", "normal", "urgent"], default: "normal" },
  };
  const nodes = {};
  const edges = [];
  let n = 0;
  const name = () => `n${++n}`;

  /** A node that runs alone: may write its own `replace` channel. */
  const soloNode = (id) => {
    const kind = pick(["set", "set", "llm", "llm", "llm", "interrupt"]);
    const own = `v${id.slice(1)}`;
    if (kind === "set") {
      state[own] = { type: "string" };
      return {
        kind,
        values: {
          [own]: `step ${id}: ${"${{ state.ticket }}"} seen ${"${{ state.count }}"} times`,
          count: 1,
          notes: [`${id} ${"${{ size(state.notes) }}"}`],
        },
      };
    }
    if (kind === "llm") {
      const style = random();
      // No `write`: the AI message is appended to `messages`.
      if (style < 0.3) return { kind, system: `Investigate ${"${{ state.ticket }}"} as ${id}.` };
      if (style < 0.65) {
        return {
          kind,
          system: "You triage support tickets.",
          prompt: `Ticket: ${"${{ state.ticket }}"} (${id}, ${"${{ state.count }}"} so far)`,
          output: {
            schema: {
              type: "object",
              properties: {
                priority: { type: "string", enum: ["low", "normal", "urgent"] },
                reason: { type: "string" },
              },
              required: ["priority", "reason"],
            },
          },
          write: { priority: "${{ output.priority }}", notes: "${{ [output.reason] }}" },
        };
      }
      state[own] = { type: "string" };
      return {
        kind,
        prompt: `Summarize ${"${{ state.ticket }}"} in one line.`,
        write: { [own]: "${{ output.text }}" },
      };
    }
    return {
      kind: "interrupt",
      payload: {
        question: `Approve ${"${{ state.ticket }}"} at ${id}?`,
        notes: "${{ state.notes }}",
      },
      schema: { type: "boolean" },
      write: "approved",
    };
  };
  /** A node on a parallel branch: only reducer channels. */
  const branchNode = (id) =>
    random() < 0.8
      ? { kind: "set", values: { notes: [`${id}: ${"${{ state.topic }}"}`], count: 1 } }
      : { kind: "llm", prompt: `Research branch ${id} of ${"${{ state.ticket }}"}.` };

  let last = name();
  nodes[last] = { kind: "set", values: { ticket: `T-${index}`, topics: ["a", "b", "c"] } };
  state[`v${n}`] = { type: "string" };
  edges.push({ from: "START", to: last });

  while (n < size) {
    const room = size - n;
    const block = room >= 5 ? pick(["chain", "chain", "route", "fan", "map", "loop"]) : "chain";
    if (block === "chain") {
      const id = name();
      nodes[id] = soloNode(id);
      edges.push({ from: last, to: id });
      last = id;
    } else if (block === "route" || block === "loop") {
      // A route to the next node or the one after it; both continue the chain.
      const a = name();
      const b = name();
      nodes[a] = soloNode(a);
      nodes[b] = soloNode(b);
      const cases =
        block === "loop"
          ? [{ when: `state.count < ${2 + Math.floor(random() * 5)}`, to: last }, { default: a }]
          : [
              { when: 'state.priority == "urgent" || state.approved', to: a },
              { when: `size(state.notes) > ${Math.floor(random() * 10)}`, to: b },
              { default: a },
            ];
      // In a loop, `last` runs again until the count is high enough.
      edges.push({ from: last, route: cases });
      edges.push({ from: a, to: b });
      last = b;
    } else if (block === "fan") {
      const width = 2 + Math.floor(random() * 3);
      const branches = Array.from({ length: Math.min(width, room - 2) }, () => name());
      // room >= 5, so there are at least two branches.
      for (const id of branches) nodes[id] = branchNode(id);
      const join = name();
      nodes[join] = soloNode(join);
      edges.push({ from: last, to: branches });
      edges.push({ from: branches, to: join });
      last = join;
    } else {
      const worker = name();
      nodes[worker] = branchNode(worker);
      const after = name();
      nodes[after] = soloNode(after);
      edges.push({
        from: last,
        map: { over: "state.topics", to: worker, with: { topic: "${{ item }}" } },
      });
      edges.push({ from: worker, to: after });
      last = after;
    }
  }
  edges.push({ from: last, to: "END" });
  return {
    version: 1,
    name: `bench-${index}`,
    description: `Generated spec ${index} for the validate benchmark.`,
    state,
    context: { user_id: { type: "string", required: true } },
    models: { default: { model: "scripted:bench", temperature: 0 } },
    nodes,
    edges,
    limits: { recursion: 100 },
  };
}

/** YAML in the style people write: block mappings, flow style for small leaves. */
function toYaml(value) {
  const doc = new Document(value);
  visit(doc, {
    Collection(_, node) {
      if (JSON.stringify(node.toJSON()).length <= 60) node.flow = true;
    },
  });
  return doc.toString({ lineWidth: 0 });
}

/** The modules bench/nine-nodes.yaml names: only their export names matter to validate. */
const MODULES = {
  "tickets.ts": "export const lookupTicket = { name: 'lookup_ticket' };\n",
  "notify.ts": "export const notifyCustomer = { name: 'notify_customer' };\n",
  "merge.ts":
    "export function mergeNotes(state: { notes: string[] }) {\n  return { summary: state.notes.join('; ') };\n}\n",
};

/** A temp project: package.json (its root), `graphs/` with the specs, `tools/` with the modules. */
function writeCorpus(count, varied) {
  const dir = mkdtempSync(join(tmpdir(), "graphspec-bench-"));
  mkdirSync(join(dir, "graphs"));
  mkdirSync(join(dir, "tools"));
  for (const [name, text] of Object.entries(MODULES)) writeFileSync(join(dir, "tools", name), text);
  const nine = readFileSync(join(ROOT, "bench", "nine-nodes.yaml"), "utf8");
  const random = prng(20_251_122);
  const files = [];
  for (let i = 0; i < count; i++) {
    const file = join(dir, "graphs", `spec-${String(i).padStart(4, "0")}.yaml`);
    writeFileSync(file, varied ? `${toYaml(generateSpec(i, random))}\n` : nine);
    files.push(file);
  }
  writeFileSync(join(dir, "package.json"), "{}\n");
  // The cold start's spec, beside the corpus (not in `graphs/`): nine-nodes.yaml, whichever corpus.
  mkdirSync(join(dir, "one"));
  writeFileSync(join(dir, "one", "one.yaml"), nine);
  return { dir, files };
}

// ---------- measurement ----------

async function floorPass(files) {
  let invalid = 0;
  for (const file of files) {
    const data = parseYaml(await readFile(file, "utf8"));
    if (!schemaValidator(data)) invalid++;
  }
  return invalid;
}

/** The CLI's validate over the corpus folder, in this process; returns its JSON findings. */
async function fullPass(dir) {
  let out = "";
  const io = { out: (t) => (out += t), err: () => {}, isTty: false, cwd: dir };
  const code = await main(["validate", "graphs", "--format", "json"], io);
  if (code === 2) throw new Error(`validate exited 2: ${out}`);
  return JSON.parse(out);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Wall and CPU (user + system) milliseconds of one call. */
async function time(fn) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await fn();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000 };
}

/** CPU milliseconds (user + system) of this process's waited-for children so far; Linux only. */
function childrenCpu() {
  try {
    // Fields 16 and 17 of /proc/self/stat (cutime, cstime), in clock ticks of 10 ms.
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return Number.NaN;
  }
}

/**
 * Each command spawned `runs` times, interleaved (one of each per round, the order rotating each
 * round) so that a busier moment of the machine hits them all; after one untimed round (Node's
 * compile cache, on Node ≥ 22, is written then). Wall time, and the CPU time of the process.
 */
function spawnInterleaved(commands, cwd, runs) {
  const results = commands.map(() => ({ wall: [], cpu: [] }));
  for (let round = -1; round < runs; round++) {
    for (let k = 0; k < commands.length; k++) {
      const i = (k + Math.max(round, 0)) % commands.length;
      const cpu = childrenCpu();
      const start = performance.now();
      const r = spawnSync(process.execPath, commands[i].args, {
        cwd,
        stdio: "ignore",
        env: { ...process.env, ...commands[i].env },
      });
      const wall = performance.now() - start;
      if (r.status !== 0) throw new Error(`${commands[i].args.join(" ")} exited ${r.status}`);
      if (round < 0) continue;
      results[i].wall.push(wall);
      results[i].cpu.push(childrenCpu() - cpu);
    }
  }
  return results;
}

/** Rows of [label, figure, note], aligned. */
function printRows(rows) {
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  for (const [a, b, c] of rows) console.log(`  ${a.padEnd(w0)}  ${b.padStart(w1)}  ${c}`);
}

const range = (xs) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;

// ---------- run ----------

const specCount = opts.only === "cold" ? 1 : Number(opts.specs);
const passes = Number(opts.passes);
const { dir, files } = writeCorpus(specCount, opts.varied);
// The CLI runs where the user is: in the project, naming `graphs`.
process.chdir(dir);
try {
  const rows = [];
  if (opts.only !== "cold") {
    // Sanity: the corpus is valid, so the full pass runs every rule to the end (and warms up).
    const found = await fullPass(dir);
    const byRule = new Map();
    for (const d of found) byRule.set(d.rule, (byRule.get(d.rule) ?? 0) + 1);
    const nodeCount = files
      .map((f) => Object.keys(parseYaml(readFileSync(f, "utf8")).nodes).length)
      .reduce((a, b) => a + b, 0);
    console.log(`corpus: ${files.length} specs, ${nodeCount} nodes, in ${dir}`);
    if (found.length)
      console.log(
        `warning: the specs have ${found.length} findings (${[...byRule].map(([r, c]) => `${r}: ${c}`).join(", ")})`,
      );

    // Warm up the floor too.
    await floorPass(files);
    const floor = [];
    const full = [];
    for (let i = 0; i < passes; i++) {
      // Alternate which side goes first, so a busier moment of the machine hits both.
      if (i % 2) {
        full.push(await time(() => fullPass(dir)));
        floor.push(await time(() => floorPass(files)));
      } else {
        floor.push(await time(() => floorPass(files)));
        full.push(await time(() => fullPass(dir)));
      }
    }
    const floorMs = median(floor.map((t) => t.wall));
    const fullMs = median(full.map((t) => t.wall));
    const floorCpu = median(floor.map((t) => t.cpu));
    const fullCpu = median(full.map((t) => t.cpu));
    const perFile = (ms) => `${((ms / files.length) * 1000).toFixed(0)} µs/spec`;
    const ratios = (side) => full.map((t, i) => t[side] / floor[i][side]);
    console.log(
      `\n${passes} alternating passes over ${files.length} ${opts.varied ? "generated specs" : "copies of bench/nine-nodes.yaml"} after a warm-up (medians):\n`,
    );
    rows.push(
      ["floor: read + YAML parse + Ajv, wall", `${floorMs.toFixed(0)} ms`, perFile(floorMs)],
      ["graphspec: validate graphs/ (the CLI), wall", `${fullMs.toFixed(0)} ms`, perFile(fullMs)],
      [
        "wall ratio (aim: ≤ 2x)",
        `${(fullMs / floorMs).toFixed(2)}x`,
        `per pass ${ratios("wall")
          .map((r) => r.toFixed(2))
          .join(", ")}`,
      ],
      ["floor, CPU", `${floorCpu.toFixed(0)} ms`, perFile(floorCpu)],
      ["graphspec, CPU", `${fullCpu.toFixed(0)} ms`, perFile(fullCpu)],
      [
        "CPU ratio (aim: ≤ 1.5x)",
        `${(fullCpu / floorCpu).toFixed(2)}x`,
        `per pass ${ratios("cpu")
          .map((r) => r.toFixed(2))
          .join(", ")}`,
      ],
    );
    printRows(rows.splice(0));
  }

  if (opts.only !== "corpus") {
    // bench/nine-nodes.yaml: nine nodes, naming three TypeScript modules (read with esbuild).
    const one = join(dir, "one", "one.yaml");
    const spawns = Number(opts.spawns);
    const commands = [
      { label: "node -e 0", args: ["-e", "0"] },
      { label: "graphspec --version", args: [join(ROOT, "bin", "graphspec.js"), "--version"] },
      {
        label: "graphspec validate one.yaml (3 TS modules)",
        args: [join(ROOT, "bin", "graphspec.js"), "validate", one],
      },
      ...(opts.compare
        ? [
            {
              label: "compare build: validate one.yaml",
              args: [join(resolve(opts.compare), "bin", "graphspec.js"), "validate", one],
            },
          ]
        : []),
      {
        label: "validate one.yaml, caches off (a first run)",
        args: [join(ROOT, "bin", "graphspec.js"), "validate", one],
        env: { NODE_DISABLE_COMPILE_CACHE: "1" },
      },
      ...(opts.compare
        ? [
            {
              label: "compare build: the same, caches off",
              args: [join(resolve(opts.compare), "bin", "graphspec.js"), "validate", one],
              env: { NODE_DISABLE_COMPILE_CACHE: "1" },
            },
          ]
        : []),
    ];
    const results = spawnInterleaved(commands, dir, spawns);
    const [nodeAlone, , validateOne] = results;
    console.log(
      `\ncold start: ${spawns} rounds, each command once per round in rotating order, after one untimed round (median [min–max]; CPU is the process's user + system):\n`,
    );
    commands.forEach((c, i) => {
      const { wall, cpu } = results[i];
      rows.push([
        `cold start: ${c.label}`,
        `${median(wall).toFixed(0)} ms`,
        `[${range(wall)}] wall; CPU ${median(cpu).toFixed(0)} ms [${range(cpu)}]`,
      ]);
    });
    rows.push([
      "cold start: validate one.yaml − node -e 0",
      `${(median(validateOne.wall) - median(nodeAlone.wall)).toFixed(0)} ms`,
      `wall; CPU ${(median(validateOne.cpu) - median(nodeAlone.cpu)).toFixed(0)} ms`,
    ]);
  }

  printRows(rows);
} finally {
  if (opts.keep) console.log(`\nkept ${dir}`);
  else {
    process.chdir(ROOT);
    rmSync(dir, { recursive: true, force: true });
  }
}
