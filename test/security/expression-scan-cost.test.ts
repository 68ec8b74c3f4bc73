/**
 * The expression budget charges what an operation scans, not only what it builds (issue 23,
 * item 1). `x in list`, `==`, `contains`, `startsWith`, `size(string)` answer a bool or an int
 * but walk their operands; charged 1 each, `state.xs.exists(x, x in state.ys)` over 800 KB ran
 * for minutes past `--deadline`, Ctrl-C and SIGTERM, and froze the server for every tenant.
 *
 * Nothing here reads the clock: each run must end with `expression-limit` (before the fix they
 * completed, after seconds or minutes, depending on how fast V8 scans that shape). The property at
 * the end compares the budget with an independent count of the work, not with time.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The property below runs thousands of evaluations: through the expression stage, not a run each.
import { ExprEnvironment, ExprLimitError } from "../../src/expr/index.js";
import {
  createExecutor,
  folderCatalog,
  type RunningServer,
  serverAuth,
  startServer,
} from "../../src/index.js";

const BIN = join(import.meta.dirname, "..", "..", "bin", "graphspec.js");
const dir = mkdtempSync(join(tmpdir(), "graphspec-scan-cost-"));
const graphs = join(dir, "graphs");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(graphs);
const started = join(dir, "hostile-started");
writeFileSync(
  join(dir, "mark.mjs"),
  `import { writeFileSync } from "node:fs";
export default () => { writeFileSync(${JSON.stringify(started)}, "1"); return {}; };
`,
);

/** START → mark (writes a file, so a test knows the run began) → scan (the expression) → END. */
const hostile = (name: string, expression: string) =>
  writeFileSync(
    join(graphs, `${name}.yaml`),
    `version: 1
name: ${name}
state:
  xs: { type: array, items: { type: string }, default: [] }
  ys: { type: array, items: { type: string }, default: [] }
  s: { type: string, default: "" }
  t: { type: string, default: "" }
  hit: { type: any }
nodes:
  mark: { kind: function, module: ../mark.mjs }
  scan: { kind: set, values: { hit: "\${{ ${expression} }}" } }
edges:
  - { from: START, to: mark }
  - { from: mark, to: scan }
  - { from: scan, to: END }
`,
  );
hostile("member", "state.xs.exists(x, x in state.ys)");
hostile("contains", "state.xs.map(a, state.xs.map(b, state.s.contains('xy')))");
hostile("starts", "state.xs.all(a, state.xs.all(b, !state.s.startsWith(state.t)))");
hostile("size", "state.xs.exists(a, state.xs.exists(b, size(state.s) < 0))");
hostile("equal", "state.xs.exists(x, state.xs == state.ys)");
// Not hostile: linear work over the same 30,000 items, which the budget must let through.
hostile(
  "linear",
  "state.xs.filter(x, x.startsWith('x-0000')).map(x, x + '!').size() + size(state.ys)",
);
writeFileSync(
  join(graphs, "small.yaml"),
  `version: 1
name: small
state:
  n: { type: integer, default: 0 }
nodes:
  add: { kind: set, values: { n: "\${{ state.n + 1 }}" } }
edges:
  - { from: START, to: add }
  - { from: add, to: END }
`,
);

// About 800 KB of JSON: 30,000 distinct 10-character items in each list, no item of xs in ys.
const xs = Array.from({ length: 30_000 }, (_, i) => `x-${String(i).padStart(8, "0")}`);
const ys = xs.map((x) => x.replace("x-", "y-"));
const input = { xs, ys };
const inputFile = join(dir, "input.json");
writeFileSync(inputFile, JSON.stringify(input));
// Two lists equal but for their last item: `==` walks all 30,000 items to answer false.
const nearlyEqual = { xs, ys: [...xs.slice(0, -1), "different"] };
// For the string scans: 300 items (90,000 pairs, within the step count alone) and two 400 KB
// strings: 36 billion characters to scan, which a budget of 1,000,000 must refuse to start.
const stringInput = {
  xs: xs.slice(0, 300),
  s: "a".repeat(400_000),
  t: `${"a".repeat(400_000)}b`,
};

describe("graphspec run: a scan in a quantifier over 800 KB ends by budget", () => {
  it("x in list, inside exists: expression-limit, not minutes past --deadline", async () => {
    const child = spawn(
      process.execPath,
      [
        BIN,
        "run",
        "member",
        "--checkpointer",
        "memory",
        "--input",
        `@${inputFile}`,
        "--deadline",
        "5s",
        "--json",
      ],
      { cwd: dir, env: { ...process.env, NO_COLOR: "1" } },
    );
    let stdout = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    const code = await new Promise((r) => child.on("exit", r));
    expect(code).toBe(1);
    const run = JSON.parse(stdout);
    expect(run).toMatchObject({
      status: "failed",
      error: { code: "expression-limit", node: "scan" },
    });
    expect(run.error.message).toMatch(/graphs\/member\.yaml:11:\d+/);
  });

  const exec = () => createExecutor({ dir: graphs, checkpointer: "memory" });
  for (const [graph, given] of [
    ["contains", stringInput],
    ["starts", stringInput],
    ["size", stringInput],
    ["equal", nearlyEqual],
  ] as const) {
    it(`${graph}: a scan answering a bool or an int is charged by what it scans`, async () => {
      const r = await exec().run(graph, { input: given });
      expect(r.error).toMatchObject({ code: "expression-limit", node: "scan" });
    });
  }
});

describe("linear work over large input still fits the default budget", () => {
  it("map and filter over 30,000 items are charged per item, not per item for the list so far", async () => {
    const r = await createExecutor({ dir: graphs, checkpointer: "memory" }).run("linear", {
      input,
    });
    expect(r.status).toBe("completed");
    expect(r.output.hit).toBe(10_000 + 30_000);
  });
});

describe("graphspec serve: one tenant's hostile expression does not stall another's requests", () => {
  const KEY_A = "key-of-tenant-a-0123456789";
  const KEY_B = "key-of-tenant-b-0123456789";
  let server: RunningServer;
  beforeAll(async () => {
    const keys = join(dir, "keys.json");
    writeFileSync(keys, JSON.stringify({ [KEY_A]: "tenant-a", [KEY_B]: "tenant-b" }));
    server = await startServer({
      exec: createExecutor({ dir: graphs, checkpointer: "sqlite", sqlitePath: join(dir, "s.db") }),
      graphs: await folderCatalog(graphs),
      auth: await serverAuth({ apiKeys: keys }),
      port: 0,
    });
  });
  afterAll(async () => {
    await server?.close(1000);
  });
  const client = (apiKey: string) =>
    new Client({ apiUrl: server.url, apiKey, callerOptions: { maxRetries: 0 } });

  it("the hostile run fails with expression-limit; /ok and tenant B's run are answered meanwhile", async () => {
    rmSync(started, { force: true });
    const a = client(KEY_A);
    const b = client(KEY_B);
    const thread = await a.threads.create();
    const hostileRun = a.runs.wait(thread.thread_id, "member", { input });
    hostileRun.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
    // Once the hostile run is in its graph, the other tenant asks the server for something.
    while (!existsSync(started)) await new Promise((r) => setTimeout(r, 10));
    const ok = await fetch(`${server.url}/ok`);
    expect(ok.status).toBe(200);
    const small = await b.runs.wait(null, "small", { input: {} });
    expect(small).toMatchObject({ n: 1 });
    await expect(hostileRun).rejects.toThrow(/expression-limit: node `scan`/);
  });
});

/**
 * Random nested quantifiers over random-sized lists and strings with scanning operations inside.
 * The test counts the work independently — characters and items each scan may walk, times the
 * number of times it runs — from the sizes alone. Whatever the shape, an evaluation that would
 * do more than (budget × 10) units of that work must end by budget: the budget bounds the work.
 */
describe("the budget bounds the work of any nesting of scans", () => {
  const env = new ExprEnvironment({
    state: {
      xs: { type: "array", items: { type: "string" } },
      ys: { type: "array", items: { type: "string" } },
      s: { type: "string" },
    },
  });
  const scope = env.scope("a property");
  /** A bool-answering scan and the characters or items it may walk, given the sizes. */
  const scans = [
    { cel: "x in state.ys", work: (z: Sizes) => z.ysChars + z.ys },
    { cel: "state.s.contains('xy')", work: (z: Sizes) => z.s },
    { cel: "state.s.startsWith(state.s + x)", work: (z: Sizes) => 2 * z.s },
    { cel: "state.s.endsWith(x + state.s)", work: (z: Sizes) => 2 * z.s },
    { cel: "state.xs == state.ys", work: (z: Sizes) => Math.min(z.xsChars, z.ysChars) },
    { cel: "state.s == state.s + 'z'", work: (z: Sizes) => z.s },
    { cel: "state.s.indexOf('xy') >= 0", work: (z: Sizes) => z.s },
    { cel: "size(state.s) < 0", work: (z: Sizes) => z.s },
    { cel: "state.s.matches('a+b')", work: (z: Sizes) => z.s },
  ];
  interface Sizes {
    xs: number;
    ys: number;
    xsChars: number;
    ysChars: number;
    s: number;
  }
  const macros = ["exists", "all", "map", "filter"];
  const arb = fc.record({
    xs: fc.integer({ min: 0, max: 300 }),
    ys: fc.integer({ min: 0, max: 300 }),
    s: fc.integer({ min: 0, max: 20_000 }),
    nesting: fc.array(fc.constantFrom(...macros), { minLength: 1, maxLength: 3 }),
    scan: fc.integer({ min: 0, max: scans.length - 1 }),
    budget: fc.constantFrom(1_000, 10_000, 100_000),
  });

  it("evaluations that would do more work than the budget allows are refused", () => {
    fc.assert(
      fc.property(arb, ({ xs: nx, ys: ny, s: ns, nesting, scan, budget }) => {
        const scanned = scans[scan]!;
        // exists(v1, exists(x, … scan)) over state.xs: the scan runs xs^depth times (scans
        // here never answer true, so exists and all never stop early).
        let cel = scanned.cel;
        let value: boolean | "list" = false;
        nesting.forEach((m, level) => {
          // exists goes on while its body is false, all while it is true: never stop early.
          const want = m === "all";
          const answer =
            value === "list"
              ? `size(${cel}) ${want ? ">=" : "<"} 0`
              : value === want
                ? cel
                : `!(${cel})`;
          cel = `state.xs.${m}(${level === 0 ? "x" : `v${level}`}, ${m === "map" ? cel : answer})`;
          value = m === "map" || m === "filter" ? "list" : want;
        });
        const values = {
          xs: Array.from({ length: nx }, (_, i) => `x${i}`),
          ys: Array.from({ length: ny }, (_, i) => `y${i}`),
          s: "a".repeat(ns),
        };
        const sizes: Sizes = {
          xs: nx,
          ys: ny,
          xsChars: values.xs.reduce((n, x) => n + x.length, 0),
          ysChars: values.ys.reduce((n, y) => n + y.length, 0),
          s: ns,
        };
        const work = scanned.work(sizes) * nx ** nesting.length;
        const program = env.compile(cel, scope, { maxCost: budget });
        let refused = false;
        try {
          program.evaluate({ state: values });
        } catch (e) {
          if (!(e instanceof ExprLimitError)) throw e;
          refused = true;
        }
        if (work > budget * 10) expect(refused).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
