/**
 * Property tests: whatever the input, `parseSpec` + `validate` return (never throw, never report an
 * internal error), and every diagnostic is well formed: a catalog rule, a message, and a position
 * inside the text with its end at or after its start.
 *
 * fast-check prints the seed and the shrunk counterexample of a failure; replay with
 * `FUZZ_SEED=<seed> npx vitest run test/fuzz.test.ts`. `FUZZ_RUNS=<n>` runs more cases.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { CATALOG, type Diagnostic, parseSpec, validate } from "../src/index.js";

const ROOT = join(import.meta.dirname, "..");
const RUNS = Number(process.env.FUZZ_RUNS ?? 1);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const params = (numRuns: number): fc.Parameters<unknown> => ({
  numRuns: numRuns * RUNS,
  ...(SEED === undefined ? {} : { seed: SEED }),
});

/** Modules and subgraphs loaded once for all runs, as one CLI run shares them between files. */
const cache = new Map<string, unknown>();

/** Lines of the text the diagnostics count in: characters, or bytes when the input did not decode. */
function linesOf(
  input: string | Uint8Array,
  decodedText: string,
  diagnostics: Diagnostic[],
): number[] {
  const byteBased = diagnostics.some((d) => d.rule === "encoding");
  if (byteBased && typeof input !== "string")
    return Buffer.from(input)
      .toString("latin1")
      .split("\n")
      .map((l) => l.length);
  return decodedText.split("\n").map((l) => l.length);
}

async function checkInvariants(input: string | Uint8Array, file: string): Promise<void> {
  const doc = parseSpec(input, { file, root: ROOT }, join(ROOT, file));
  const diagnostics = await validate(doc, { cache });
  const lengths = linesOf(input, doc.text, diagnostics);
  const inBounds = (line: number, column: number) =>
    Number.isInteger(line) &&
    Number.isInteger(column) &&
    line >= 1 &&
    column >= 1 &&
    line <= lengths.length &&
    column <= lengths[line - 1]! + 1;
  for (const d of diagnostics) {
    const where = `${d.line}:${d.column}-${d.endLine}:${d.endColumn} [${d.rule}] ${d.message}`;
    expect(d.rule, where).not.toBe("internal-error");
    expect(Object.hasOwn(CATALOG, d.rule), where).toBe(true);
    expect(["error", "warning"], where).toContain(d.severity);
    expect(typeof d.message === "string" && d.message.length > 0, where).toBe(true);
    expect(d.file, where).toBe(file);
    expect(inBounds(d.line, d.column), `start out of bounds: ${where}`).toBe(true);
    expect(inBounds(d.endLine, d.endColumn), `end out of bounds: ${where}`).toBe(true);
    const endAfterStart = d.endLine > d.line || (d.endLine === d.line && d.endColumn >= d.column);
    expect(endAfterStart, `end before start: ${where}`).toBe(true);
  }
}

/** Pieces of YAML and JSON syntax, so random text reaches deep into the parser rather than failing at once. */
const yamlish = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        ...["{", "}", "[", "]", ":", ": ", "- ", ",", " ", "  ", "\n", "\r\n", "\t", "#", "'", '"'],
        ...["|", ">-", "---", "...", "&a ", "*a", "!!str ", "? ", "%YAML 1.2\n", "\\", "\uFEFF"],
        ...["version: 1", "name: x", "state:", "nodes:", "edges:", "kind: set", "from: START"],
        ...["to: END", "${{ state.x }}", "__proto__", "é", "😀", "\u0000", "\u2028"],
      ),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(""));

describe("random input", () => {
  it("random bytes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), (bytes) =>
        checkInvariants(bytes, "fuzz.yaml"),
      ),
      params(300),
    );
  });

  it("random strings, as YAML and as JSON", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary", maxLength: 200 }), fc.boolean(), (text, json) =>
        checkInvariants(text, json ? "fuzz.json" : "fuzz.yaml"),
      ),
      params(300),
    );
  });

  it("random YAML-ish token soup, as YAML and as JSON", async () => {
    await fc.assert(
      fc.asyncProperty(yamlish, fc.boolean(), (text, json) =>
        checkInvariants(text, json ? "fuzz.json" : "fuzz.yaml"),
      ),
      params(400),
    );
  });
});

// ----- structured mutations of real specs -----

interface Seed {
  file: string;
  text: string;
  data: unknown;
  json: boolean;
}

const SEEDS: Seed[] = [join(ROOT, "graphs"), join(ROOT, "test/fixtures/valid")].flatMap((dir) =>
  readdirSync(dir)
    .filter((f) => /\.(ya?ml|json)$/.test(f) && !f.includes(".test."))
    .sort()
    .map((f) => {
      const text = readFileSync(join(dir, f), "utf8");
      const json = f.endsWith(".json");
      return { file: relative(ROOT, join(dir, f)), text, json, data: parseYaml(text) };
    }),
);

type Path = (string | number)[];

/** Every path to a value inside `data`, the root included. */
function pathsOf(data: unknown, path: Path = [], out: Path[] = []): Path[] {
  out.push(path);
  if (Array.isArray(data)) for (const [i, v] of data.entries()) pathsOf(v, [...path, i], out);
  else if (data && typeof data === "object")
    for (const [k, v] of Object.entries(data)) pathsOf(v, [...path, k], out);
  return out;
}

type Mutation =
  | { kind: "delete" }
  | { kind: "rename"; to: string }
  | { kind: "replace"; value: unknown }
  | { kind: "duplicate" };

/** Applies a mutation at `path` to a deep copy of `data`. */
function mutate(data: unknown, path: Path, m: Mutation): unknown {
  const copy = structuredClone(data);
  if (path.length === 0) return m.kind === "replace" ? m.value : copy;
  const parent = path.slice(0, -1).reduce<any>((v, k) => v[k], copy);
  const key = path.at(-1)!;
  if (Array.isArray(parent)) {
    const i = key as number;
    if (m.kind === "delete") parent.splice(i, 1);
    else if (m.kind === "duplicate") parent.splice(i, 0, structuredClone(parent[i]));
    else if (m.kind === "replace") parent[i] = m.value;
    else parent[i] = m.to;
    return copy;
  }
  if (m.kind === "delete") delete parent[key];
  else if (m.kind === "replace") parent[key] = m.value;
  else if (m.kind === "rename") {
    const value = parent[key];
    delete parent[key];
    parent[m.to] = value;
  } else parent[`${String(key)}_copy`] = structuredClone(parent[key]);
  return copy;
}

const serialize = (seed: Seed, data: unknown) =>
  seed.json ? JSON.stringify(data, null, 2) : stringifyYaml(data);

const aValue = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, "", "START", "END", "${{ state.nope }}", [], {}),
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.jsonValue({ maxDepth: 2 }),
);
const aName = fc.oneof(
  fc.constantFrom(
    "__proto__",
    "constructor",
    "kind",
    "to",
    "from",
    "default",
    "START",
    "state",
    "",
  ),
  fc.string({ maxLength: 10 }),
);
const aMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constant({ kind: "delete" as const }),
  fc.constant({ kind: "duplicate" as const }),
  aName.map((to) => ({ kind: "rename" as const, to })),
  aValue.map((value) => ({ kind: "replace" as const, value })),
);

/** Text edits: truncation, insertion, deletion, and repeating a line (duplicate keys in YAML). */
type Edit =
  | { kind: "truncate"; at: number }
  | { kind: "insert"; at: number; text: string }
  | { kind: "remove"; at: number; length: number }
  | { kind: "repeat-line"; at: number };

function edit(text: string, e: Edit): string {
  const at = Math.floor(e.at * text.length);
  switch (e.kind) {
    case "truncate":
      return text.slice(0, at);
    case "insert":
      return text.slice(0, at) + e.text + text.slice(at);
    case "remove":
      return text.slice(0, at) + text.slice(at + e.length);
    case "repeat-line": {
      const start = text.lastIndexOf("\n", at - 1) + 1;
      const end = text.indexOf("\n", at);
      const line = text.slice(start, end < 0 ? text.length : end + 1);
      return text.slice(0, start) + line + (line.endsWith("\n") ? "" : "\n") + text.slice(start);
    }
  }
}

const fraction = fc.double({ min: 0, max: 1, noNaN: true });
const anEdit: fc.Arbitrary<Edit> = fc.oneof(
  fraction.map((at) => ({ kind: "truncate" as const, at })),
  fc.record({
    kind: fc.constant("insert" as const),
    at: fraction,
    text: fc.oneof(yamlish, fc.string()),
  }),
  fc.record({ kind: fc.constant("remove" as const), at: fraction, length: fc.nat(40) }),
  fraction.map((at) => ({ kind: "repeat-line" as const, at })),
);

const aSeed = fc.constantFrom(...SEEDS);

describe("mutations of valid specs", () => {
  it("has seeds", () => {
    expect(SEEDS.length).toBeGreaterThan(1);
  });

  it("data mutations: delete, duplicate, rename keys; swap value types", async () => {
    await fc.assert(
      fc.asyncProperty(
        aSeed,
        fc.nat(),
        fc.array(aMutation, { minLength: 1, maxLength: 3 }),
        async (seed, pick, mutations) => {
          let data = seed.data;
          for (const m of mutations) {
            const paths = pathsOf(data);
            data = mutate(data, paths[pick % paths.length]!, m);
          }
          await checkInvariants(serialize(seed, data), seed.file);
        },
      ),
      params(150),
    );
  });

  it("text mutations: truncate, insert, remove, repeat a line", async () => {
    await fc.assert(
      fc.asyncProperty(
        aSeed,
        fc.array(anEdit, { minLength: 1, maxLength: 3 }),
        async (seed, edits) => {
          const text = edits.reduce(edit, seed.text);
          await checkInvariants(text, seed.file);
        },
      ),
      params(200),
    );
  });
});
