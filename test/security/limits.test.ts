/**
 * Bounded expressions and regexes, tried as an attacker would: expressions that would take
 * gigabytes or minutes, catastrophic regexes in `matches()` and in a channel's `pattern`,
 * `__proto__` keys, integers beyond 2^53. Through the package entry and the built CLI.
 *
 * Nothing here compares against the clock: a catastrophic case that is not bounded runs for
 * minutes (or takes the process down), so the test's own time limit is what fails it.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compile, createExecutor, loadSpec, validate } from "../../src/index.js";

const BIN = join(import.meta.dirname, "..", "..", "bin", "graphspec.js");
const dir = mkdtempSync(join(tmpdir(), "graphspec-sec-limits-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));
const spec = (name: string, text: string) =>
  writeFileSync(join(dir, "graphs", `${name}.yaml`), text);
const exec = () => createExecutor({ dir: join(dir, "graphs"), checkpointer: "memory" });
const items = Array.from({ length: 1000 }, (_, i) => i);

const one = (name: string, state: string, value: string) =>
  spec(
    name,
    `version: 1
name: ${name}
state:
${state}
  out: { type: any }
nodes:
  compute:
    kind: set
    values:
      out: "${value}"
edges:
  - { from: START, to: compute }
  - { from: compute, to: END }
`,
  );

one(
  "nested-map",
  "  items: { type: array, items: { type: integer } }",
  "${{ state.items.map(a, state.items.map(b, state.items.map(c, a + b + c))) }}",
);
one(
  "nested-exists",
  "  items: { type: array, items: { type: integer } }",
  "${{ state.items.exists(a, state.items.exists(b, state.items.exists(c, a + b + c < 0))) }}",
);
one(
  "bind-doubling",
  "  s: { type: string }",
  "${{ cel.bind(a, state.s + state.s, cel.bind(b, a + a, cel.bind(c, b + b, cel.bind(d, c + c, d + d)))) }}",
);
spec(
  "doubling-loop",
  `version: 1
name: doubling-loop
state:
  s: { type: string }
limits: { recursion: 12 }
nodes:
  double: { kind: set, values: { s: "\${{ state.s + state.s }}" } }
edges:
  - { from: START, to: double }
  - from: double
    route:
      - { when: "size(state.s) > 100000000", to: END }
      - { default: double }
`,
);

describe("expressions have a cost budget", () => {
  it("three nested maps over 1,000 items fail with expression-limit at file:line", async () => {
    const r = await exec().run("nested-map", { input: { items } });
    expect(r.error).toMatchObject({ code: "expression-limit", phase: "node", node: "compute" });
    expect(r.error?.message).toMatch(/graphs\/nested-map\.yaml:10:\d+/);
    expect(r.error?.hint).toMatch(/limits\.expression_cost/);
  });

  it("three nested exists (which swallow step errors) fail with expression-limit too", async () => {
    const r = await exec().run("nested-exists", { input: { items } });
    expect(r.error).toMatchObject({ code: "expression-limit", node: "compute" });
    expect(r.error?.message).toMatch(/graphs\/nested-exists\.yaml:10:\d+/);
  });

  it("strings built by doubling are charged by size: in one expression and across a loop", async () => {
    const bound = await exec().run("bind-doubling", { input: { s: "x".repeat(200_000) } });
    expect(bound.error).toMatchObject({ code: "expression-limit", node: "compute" });
    const loop = await exec().run("doubling-loop", { input: { s: "x".repeat(65_536) } });
    expect(loop.error).toMatchObject({ code: "expression-limit", node: "double" });
    expect(loop.error?.message).toMatch(/graphs\/doubling-loop\.yaml:7:\d+/);
    // The last write that fit is kept: well under the budget's 10 million characters.
    expect((loop.output.s as string).length).toBeLessThanOrEqual(10_000_000);
  });

  it("the budget is the spec's limits.expression_cost", async () => {
    one(
      "cheap-limit",
      "  items: { type: array, items: { type: integer } }",
      "${{ state.items.map(a, a + 1) }}",
    );
    const fits = await exec().run("cheap-limit", { input: { items } });
    expect(fits.status).toBe("completed");
    const text = `version: 1
name: tight
state:
  items: { type: array, items: { type: integer } }
  out: { type: any }
limits: { expression_cost: 1000 }
nodes:
  compute: { kind: set, values: { out: "\${{ state.items.map(a, a + 1) }}" } }
edges:
  - { from: START, to: compute }
  - { from: compute, to: END }
`;
    spec("tight", text);
    const over = await exec().run("tight", { input: { items } });
    expect(over.error).toMatchObject({ code: "expression-limit" });
    expect(over.error?.message).toMatch(/budget of 1,000 /);
  });

  it("an edge's expression over budget fails too, located in the route", async () => {
    spec(
      "edge-cost",
      `version: 1
name: edge-cost
state:
  items: { type: array, items: { type: integer } }
nodes:
  a: { kind: set, values: { items: "\${{ state.items }}" } }
edges:
  - { from: START, to: a }
  - from: a
    route:
      - { when: "state.items.exists(x, state.items.exists(y, state.items.exists(z, x + y + z < 0)))", to: END }
      - { default: END }
`,
    );
    const r = await exec().run("edge-cost", { input: { items } });
    expect(r.error).toMatchObject({ code: "expression-limit" });
    expect(r.error?.message).toMatch(/graphs\/edge-cost\.yaml:11:\d+/);
  });
});

// A loop of steps, each a long evaluation well within its budget, and no I/O between them.
spec(
  "spin",
  `version: 1
name: spin
state:
  items: { type: array, items: { type: integer }, default: [] }
  n: { type: integer, default: 0 }
  hit: { type: boolean, default: false }
limits: { recursion: 10000 }
nodes:
  mark: { kind: function, module: ../mark.mjs }
  work:
    kind: set
    values:
      n: "\${{ state.n + 1 }}"
      hit: "\${{ state.items.exists(a, state.items.exists(b, a + b < 0)) }}"
edges:
  - { from: START, to: mark }
  - { from: mark, to: work }
  - from: work
    route:
      - { when: "state.n >= 5000", to: END }
      - { default: work }
`,
);
const started = join(dir, "spin-started");
writeFileSync(
  join(dir, "mark.mjs"),
  `import { writeFileSync } from "node:fs";
export default () => { writeFileSync(${JSON.stringify(started)}, "1"); return {}; };
`,
);
const spinItems = Array.from({ length: 300 }, (_, i) => i);

describe("a deadline and Ctrl-C stop a loop of long evaluations", () => {
  it("--deadline: the executor's deadline fires between steps", async () => {
    const r = await exec().run("spin", { input: { items: spinItems }, deadline: 500 });
    expect(r.error).toMatchObject({ code: "deadline-exceeded" });
    expect(r.output.n).toBeLessThan(5000);
  });

  it("Ctrl-C: the CLI's first SIGINT stops the run at the next step", async () => {
    rmSync(started, { force: true });
    const child = spawn(
      process.execPath,
      [
        BIN,
        "run",
        "spin",
        "--checkpointer",
        "memory",
        "--input",
        JSON.stringify({ items: spinItems }),
        "--json",
      ],
      { cwd: dir, env: { ...process.env, NO_COLOR: "1" } },
    );
    let stdout = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    while (!existsSync(started)) await new Promise((r) => setTimeout(r, 20));
    child.kill("SIGINT");
    const code = await new Promise((r) => child.on("exit", r));
    expect(code).toBe(1);
    const stopped = JSON.parse(stdout);
    expect(stopped).toMatchObject({ status: "failed", error: { code: "cancelled" } });
    expect(stopped.output.n).toBeLessThan(5000);
  });
});

// 32 `a`s and a `!`: a backtracking engine tries 2^32 ways to split the `a`s before failing.
const EVIL = `${"a".repeat(32)}!`;

describe("regexes run in linear time", () => {
  it("matches('^(a+)+$') on 32 a's and a ! answers", async () => {
    one("evil-matches", "  s: { type: string }", "${{ state.s.matches('^(a+)+$') }}");
    const r = await exec().run("evil-matches", { input: { s: EVIL } });
    expect(r.status).toBe("completed");
    expect(r.output.out).toBe(false);
    const yes = await exec().run("evil-matches", { input: { s: "aaaa" } });
    expect(yes.output.out).toBe(true);
  });

  it("a pattern from state given to matches() runs on the same engine", async () => {
    one(
      "state-pattern",
      "  s: { type: string }\n  p: { type: string }",
      "${{ state.s.matches(state.p) }}",
    );
    const r = await exec().run("state-pattern", { input: { s: EVIL, p: "^(a+)+$" } });
    expect(r.output.out).toBe(false);
    const bad = await exec().run("state-pattern", { input: { s: "aa", p: "(a)\\1" } });
    expect(bad.error).toMatchObject({ code: "expression" });
    expect(bad.error?.message).toMatch(/backreference/);
  });

  it("a channel's pattern `^(a+)+$` refuses 32 a's and a ! as input", async () => {
    spec(
      "evil-pattern",
      `version: 1
name: evil-pattern
state:
  code: { type: string, pattern: "^(a+)+$" }
  codes: { type: array, items: { type: string, pattern: "^(a+)+$" }, default: [] }
nodes:
  noop: { kind: set, values: { codes: [] } }
edges:
  - { from: START, to: noop }
  - { from: noop, to: END }
`,
    );
    const r = await exec().run("evil-pattern", { input: { code: EVIL } });
    expect(r.error).toMatchObject({ code: "invalid-input" });
    const nested = await exec().run("evil-pattern", { input: { codes: ["aa", EVIL] } });
    expect(nested.error).toMatchObject({ code: "invalid-input" });
    const fine = await exec().run("evil-pattern", { input: { code: "aaa" } });
    expect(fine.status).toBe("completed");
  });

  it("validate reports patterns the engine cannot run, at their place, with a hint", () => {
    const file = join(dir, "graphs", "patterns.yaml");
    writeFileSync(
      file,
      `version: 1
name: patterns
state:
  back: { type: string, pattern: "(a)\\\\1" }
  ahead: { type: array, items: { type: string, pattern: "x(?=y)" } }
  out: { type: boolean }
context:
  behind: { type: string, pattern: "(?<=a)b" }
nodes:
  s: { kind: set, values: { out: "\${{ context.behind.matches('(?!x)y') }}" } }
edges:
  - { from: START, to: s }
  - { from: s, to: END }
`,
    );
    const r = spawnSync(process.execPath, [BIN, "validate", "--format", "json", file], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(r.status).toBe(1);
    const found = (JSON.parse(r.stdout) as { diagnostics?: unknown[] }[])
      .flatMap((f) => f.diagnostics ?? [f])
      .map((d) => {
        const x = d as {
          rule: string;
          line: number;
          column: number;
          message: string;
          hint?: string;
        };
        return [x.rule, x.line, x.column, x.message, Boolean(x.hint)];
      });
    expect(found).toEqual([
      ["regex", 4, 34, expect.stringMatching(/backreference/), true],
      ["regex", 5, 57, expect.stringMatching(/lookahead/), true],
      ["regex", 8, 36, expect.stringMatching(/lookbehind/), true],
      ["regex", 10, 62, expect.stringMatching(/lookahead/), true],
    ]);
  });
});

describe("`__proto__` keys", () => {
  it("validate refuses a CEL map literal key __proto__ at the key; compile refuses it too", async () => {
    one(
      "proto-literal",
      "  n: { type: integer }",
      "${{ {'a': 1, '__proto__': {'polluted': true}} }}",
    );
    const path = join(dir, "graphs", "proto-literal.yaml");
    const found = await validate(await loadSpec(path));
    expect(found.map((d) => [d.rule, d.line, d.column])).toEqual([["unsafe-key", 10, 26]]);
    await expect(compile(path)).rejects.toThrow(/__proto__/);
  });

  it("a value with a __proto__ key is refused at an expression's boundary, not turned into a prototype", async () => {
    one("proto-copy", "  inp: { type: any }", "${{ state.inp }}");
    // compile() and invoke, as a library user would: no executor screening the input first.
    const graph = await compile(join(dir, "graphs", "proto-copy.yaml"));
    const inp = JSON.parse('{"__proto__": {"polluted": true}}');
    // Converted with `out[key] = value`, the key set the copy's prototype, and the value came
    // out as "[object Object]"; now the expression fails and says why.
    await expect(graph.invoke({ inp } as never)).rejects.toThrow(/`__proto__` cannot cross/);
  });

  it("the executor refuses run input and resume values with a __proto__ key", async () => {
    const inp = JSON.parse('{"nested": {"__proto__": {"polluted": true}}}');
    const r = await exec().run("proto-copy", { input: { inp } });
    expect(r.error).toMatchObject({ code: "invalid-input", field: "inp.nested.__proto__" });
  });
});

describe("integers are safe integers", () => {
  spec(
    "ints",
    `version: 1
name: ints
state:
  count: { type: integer, default: 0 }
  list: { type: array, items: { type: integer }, default: [] }
nodes:
  f: { kind: function, module: ../big.mjs }
edges:
  - { from: START, to: f }
  - { from: f, to: END }
`,
  );
  writeFileSync(
    join(dir, "big.mjs"),
    "export default () => ({ count: globalThis.bigWrite ?? 1 });\n",
  );

  it("1e300 is refused in input, nested input and a node's write", async () => {
    const a = await exec().run("ints", { input: { count: 1e300 } });
    expect(a.error).toMatchObject({ code: "invalid-input" });
    expect(a.error?.message).toMatch(/safe integer/);
    const b = await exec().run("ints", { input: { list: [1, 1e300] } });
    expect(b.error).toMatchObject({ code: "invalid-input" });
    (globalThis as { bigWrite?: number }).bigWrite = 2 ** 53;
    const c = await exec().run("ints", { input: {} });
    expect(c.error).toMatchObject({ code: "invalid-write", node: "f" });
    (globalThis as { bigWrite?: number }).bigWrite = 2 ** 53 - 1;
    const d = await exec().run("ints", { input: {} });
    expect(d.status).toBe("completed");
  });

  it("validate refuses a literal 1e300 written to an integer channel", async () => {
    const path = join(dir, "graphs", "int-literal.yaml");
    writeFileSync(
      path,
      `version: 1
name: int-literal
state:
  count: { type: integer }
nodes:
  s: { kind: set, values: { count: 1e300 } }
edges:
  - { from: START, to: s }
  - { from: s, to: END }
`,
    );
    const found = await validate(await loadSpec(path));
    expect(found.map((d) => [d.rule, d.line])).toEqual([["expression-type", 6]]);
  });
});
