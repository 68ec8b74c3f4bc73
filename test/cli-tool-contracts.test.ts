/**
 * Tool contracts CI can check without running a module: a `graphspec init` project, a LangChain
 * tool module that leaves a marker file when it is imported, `graphspec lock` (which runs it) and
 * then `graphspec validate` as the project's CI runs it (which must not), through the built CLI.
 */
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { graphspecIn, ROOT, scratchDir } from "./support/cli.js";

const dir = join(scratchDir("tool-contracts"), "app");
const graphspec = graphspecIn(join(dir, ".."));
const inApp = graphspecIn(dir);
const MARKER = join(dir, "imported.marker");

const TOOL = `import { writeFileSync } from "node:fs";
import { tool } from "@langchain/core/tools";
import { z } from "zod";

// Proves who runs this module: validate must not.
writeFileSync(new URL("../imported.marker", import.meta.url), "imported");

export const add = tool(async ({ a, b }) => String(a + b), {
  name: "add",
  description: "Add two numbers.",
  schema: z.object({
    a: z.number(),
    b: z.number(),
    mode: z.enum(["fast", "exact"]).optional(),
  }),
});
`;

/** A tool whose schema is imported from another file of the project. */
const SPLIT = `import { tool } from "@langchain/core/tools";
import { greeting } from "./schemas.js";

export const greet = tool(async ({ name }) => \`hello \${name}\`, {
  name: "greet",
  description: "Greet someone.",
  schema: greeting,
});
`;
const SCHEMAS = `import { z } from "zod";

export const greeting = z.object({ name: z.string() });
`;

/** A graph whose one tool node calls `add` with `args` (YAML flow mapping). */
const graph = (name: string, args: string) => `version: 1
name: ${name}
state:
  label: { type: string, default: "one" }
  n: { type: number, default: 1 }
  speed: { type: string, enum: [fast, slow], default: fast }
  total: { type: string }
tools:
  add: { module: ../tools/math.ts }
nodes:
  sum:
    kind: tool
    tool: add
    args: ${args}
    write: total
edges:
  - { from: START, to: sum }
  - { from: sum, to: END }
`;

interface Finding {
  file: string;
  line: number;
  column: number;
  rule: string;
  message: string;
  hint?: string;
}

/** `graphspec validate --format github`'s neighbour for tests: the findings as JSON. */
function validate(file: string): { status: number | null; findings: Finding[] } {
  rmSync(MARKER, { force: true });
  const r = inApp("validate", "--format", "json", file);
  expect(existsSync(MARKER), "validate imported the tool module").toBe(false);
  return { status: r.status, findings: JSON.parse(r.stdout) as Finding[] };
}

const brief = (f: Finding) => `${f.file}:${f.line}:${f.column} ${f.rule}: ${f.message}`;

function writeGraph(name: string, args: string): string {
  writeFileSync(join(dir, "graphs", `${name}.yaml`), graph(name, args));
  return `graphs/${name}.yaml`;
}

beforeAll(() => {
  const made = graphspec("init", "app");
  expect(made.status).toBe(0);
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  writeFileSync(join(dir, "tools", "math.ts"), TOOL);
  writeGraph("ok", '{ a: "${{ state.n }}", b: 2, mode: exact }');
  writeFileSync(join(dir, "tools", "split.ts"), SPLIT);
  writeFileSync(join(dir, "tools", "schemas.ts"), SCHEMAS);
  writeFileSync(
    join(dir, "graphs", "split.yaml"),
    graph("split", '{ name: "${{ state.label }}" }').replace(
      "add: { module: ../tools/math.ts }",
      "add: { module: ../tools/split.ts, export: greet }",
    ),
  );
  const locked = inApp("lock");
  expect(locked.stderr).toBe("");
  expect(locked.stdout).toBe("✔ wrote graphspec.lock.json (3 modules, 3 tools)\n");
  expect(locked.status).toBe(0);
  // `lock` ran it (in its separate process): the marker says the test's marker works.
  expect(existsSync(MARKER)).toBe(true);
});

describe("validate checks a module tool's arguments from graphspec.lock.json, running nothing", () => {
  it("a new project validates clean, and so does a graph whose arguments fit", () => {
    const r = validate("graphs/");
    expect(r.findings).toEqual([]);
    expect(r.status).toBe(0);
  });

  it("a typed template of the wrong type names the argument, both types and file:line:col", () => {
    const file = writeGraph("wrong-type", '{ a: "${{ state.label }}", b: 2 }');
    const r = validate(file);
    expect(r.findings.map(brief)).toEqual([
      `${file}:14:16 tool-args: argument \`a\` takes a number, but this template gives a \`string\``,
    ]);
    expect(r.findings[0]?.hint).toBe("convert it with `double(…)`");
    expect(r.status).toBe(1);
  });

  it("a missing required argument", () => {
    const file = writeGraph("missing", "{ a: 1 }");
    expect(validate(file).findings.map(brief)).toEqual([
      `${file}:14:11 tool-args: tool \`add\` needs argument \`b\``,
    ]);
  });

  it("an enum: a literal outside it, and a channel whose enum is wider", () => {
    const literal = writeGraph("enum-literal", "{ a: 1, b: 2, mode: slow }");
    expect(validate(literal).findings.map(brief)).toEqual([
      `${literal}:14:31 tool-args: argument \`mode\` must be one of "fast", "exact"`,
    ]);
    const typed = writeGraph("enum-typed", '{ a: 1, b: 2, mode: "${{ state.speed }}" }');
    expect(validate(typed).findings.map(brief)).toEqual([
      `${typed}:14:31 tool-args: argument \`mode\` must be one of "fast", "exact", but this template may give "slow"`,
    ]);
  });

  it("an argument the tool does not have", () => {
    const file = writeGraph("extra", "{ a: 1, b: 2, c: 3 }");
    const r = validate(file);
    expect(r.findings.map(brief)).toEqual([
      `${file}:14:25 tool-args: tool \`add\` has no argument \`c\``,
    ]);
  });

  it("a changed tool module is a finding at its reference naming the command that refreshes the lock", () => {
    const file = writeGraph("stale", "{ a: 1, b: 2 }");
    appendFileSync(join(dir, "tools", "math.ts"), "// changed\n");
    try {
      const r = validate(file);
      expect(r.findings.map(brief)).toEqual([
        `${file}:9:18 tool-lock: module \`../tools/math.ts\` of tool \`add\`, or a file it imports, has changed since graphspec.lock.json was written, so the tool's arguments cannot be checked`,
      ]);
      expect(r.findings[0]?.hint).toBe(
        "run `npx graphspec lock` where the tool code is trusted (it loads the tool modules) and commit graphspec.lock.json",
      );
      expect(r.status).toBe(1);
      const checked = inApp("lock", "--check");
      expect(checked.stderr).toBe(
        "✖ graphspec.lock.json is out of date: run `npx graphspec lock` and commit it\n",
      );
      expect(checked.status).toBe(1);
    } finally {
      writeFileSync(join(dir, "tools", "math.ts"), TOOL);
    }
    expect(inApp("lock", "--check").status).toBe(0);
  });

  it("a tool whose schema another file holds: checked from the lock, stale when that file changes", () => {
    const file = "graphs/split.yaml";
    expect(validate(file).findings).toEqual([]);
    writeFileSync(
      join(dir, file),
      graph("split", "{ name: 7 }").replace(
        "add: { module: ../tools/math.ts }",
        "add: { module: ../tools/split.ts, export: greet }",
      ),
    );
    expect(validate(file).findings.map(brief)).toEqual([
      `${file}:14:19 tool-args: argument \`name\` must be a string, not 7`,
    ]);
    writeFileSync(join(dir, "tools", "schemas.ts"), SCHEMAS.replace("z.string()", "z.number()"));
    try {
      expect(validate(file).findings.map(brief)).toEqual([
        `${file}:9:18 tool-lock: module \`../tools/split.ts\` of tool \`add\`, or a file it imports, has changed since graphspec.lock.json was written, so the tool's arguments cannot be checked`,
      ]);
    } finally {
      writeFileSync(join(dir, "tools", "schemas.ts"), SCHEMAS);
    }
  });

  it("a tool module missing from the lock is a finding too", () => {
    writeFileSync(join(dir, "tools", "other.ts"), TOOL.replace('name: "add"', 'name: "plus"'));
    const file = writeGraph("unlocked", "{ a: 1, b: 2 }").replace("math", "other");
    writeFileSync(
      join(dir, file),
      graph("unlocked", "{ a: 1, b: 2 }").replace("../tools/math.ts", "../tools/other.ts"),
    );
    try {
      expect(validate(file).findings.map(brief)).toEqual([
        `${file}:9:18 tool-lock: module \`../tools/other.ts\` of tool \`add\` is not in graphspec.lock.json, so the tool's arguments cannot be checked`,
      ]);
    } finally {
      rmSync(join(dir, file));
    }
  });

  it("the lock holds the specs of the folders it was written for; one elsewhere is checked as without it", () => {
    const lock = JSON.parse(readFileSync(join(dir, "graphspec.lock.json"), "utf8"));
    expect(lock.covers).toEqual(["graphs"]);
    writeFileSync(join(dir, "tools", "other.ts"), TOOL.replace('name: "add"', 'name: "plus"'));
    mkdirSync(join(dir, "examples"), { recursive: true });
    const spec = graph("elsewhere", "{ a: 1, b: 2 }").replace(
      "../tools/math.ts",
      "../tools/other.ts",
    );
    writeFileSync(join(dir, "examples", "elsewhere.yaml"), spec);
    mkdirSync(join(dir, "graphs", "more"), { recursive: true });
    writeFileSync(
      join(dir, "graphs", "more", "below.yaml"),
      spec.replace("elsewhere", "below").replace("../tools/", "../../tools/"),
    );
    try {
      expect(validate("examples/elsewhere.yaml").findings).toEqual([]);
      // A folder below one it covers is covered: a new spec there must be locked.
      expect(validate("graphs/more/below.yaml").findings.map((f) => f.rule)).toEqual(["tool-lock"]);
    } finally {
      rmSync(join(dir, "examples"), { recursive: true });
      rmSync(join(dir, "graphs", "more"), { recursive: true });
    }
  });
});

describe("a tool whose schema is written in the spec", () => {
  it("checks a typed template against it (the issue's `${{ state.label }}` into a number)", () => {
    writeFileSync(join(dir, "tools", "plain.ts"), "export const add = ({ a }) => a + 1;\n");
    const file = "graphs/plain.yaml";
    writeFileSync(
      join(dir, file),
      `version: 1
name: plain
state:
  label: { type: string, default: "one" }
  total: { type: number }
tools:
  add:
    module: ../tools/plain.ts
    description: Adds one.
    schema: { type: object, properties: { a: { type: number } }, required: [a] }
nodes:
  sum: { kind: tool, tool: add, args: { a: "\${{ state.label }}" }, write: total }
edges:
  - { from: START, to: sum }
  - { from: sum, to: END }
`,
    );
    try {
      // Not in the lock either: a plain function's schema is the spec's, so that is reported too.
      const r = validate(file);
      expect(r.findings.filter((f) => f.rule === "tool-args").map(brief)).toEqual([
        `${file}:12:44 tool-args: argument \`a\` takes a number, but this template gives a \`string\``,
      ]);
      expect(r.status).toBe(1);
    } finally {
      rmSync(join(dir, file));
    }
  });
});

describe("a tool's `bind`", () => {
  it("is checked against the arguments it fills, by type", () => {
    const file = "graphs/bound.yaml";
    writeFileSync(
      join(dir, file),
      graph("bound", "{ b: 2 }").replace(
        "add: { module: ../tools/math.ts }",
        'add: { module: ../tools/math.ts, bind: { a: "${{ state.label }}", mode: slow } }',
      ),
    );
    try {
      expect(validate(file).findings.map(brief)).toEqual([
        `${file}:9:47 tool-args: argument \`a\` takes a number, but this template gives a \`string\``,
        `${file}:9:75 tool-args: argument \`mode\` must be one of "fast", "exact"`,
      ]);
    } finally {
      rmSync(join(dir, file));
    }
  });
});

describe("at run time", () => {
  it("refused arguments name the argument, what it takes and what it got", () => {
    // `any` is not known before the run, so validate lets it pass; the tool's schema refuses it.
    const file = writeGraph("dyn", '{ a: "${{ state.junk }}", b: 2 }');
    writeFileSync(
      join(dir, file),
      graph("dyn", '{ a: "${{ state.junk }}", b: 2 }').replace(
        "state:\n",
        'state:\n  junk: { type: any, default: "one" }\n',
      ),
    );
    try {
      expect(validate(file).findings).toEqual([]);
      const r = inApp("run", file, "--checkpointer", "memory", "--input", "{}");
      expect(r.stdout + r.stderr).toContain(
        'node `sum`: tool `add` refused its arguments: argument `a` must be a number, not the string "one"',
      );
      expect(r.status).toBe(1);
    } finally {
      rmSync(join(dir, file));
    }
  });
});
