/**
 * `graphspec validate` over many files reads ahead (several files at once) and asks the file
 * system about folders and modules once per run (src/cli/read-ahead.ts, src/spec/path-probes.ts).
 * Neither may change what is reported: the CLI's findings for a folder of varied specs are
 * compared with checking each file on its own through the package entry — one file at a time,
 * nothing shared — finding for finding, in the same order.
 *
 * It runs the built CLI (dist/): run `npm run build` first.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inOrder } from "../src/cli/read-ahead.js";
import { type Diagnostic, readSpec, validate } from "../src/index.js";
import { MINIMAL_SPEC } from "./helpers.js";

const ROOT = join(import.meta.dirname, "..");
const BIN = join(ROOT, "bin", "graphspec.js");

const TOOLS_SPEC = (module: string) => `version: 1
name: with-tools
state:
  messages: { type: messages }
  ticket: { type: string, default: "" }
models:
  default: { model: "scripted:x" }
tools:
  lookup: { module: ${module}, export: lookupTicket }
nodes:
  ask: { kind: agent, tools: [lookup], system: "Look up \${{ state.ticket }}." }
edges:
  - { from: START, to: ask }
  - { from: ask, to: END }
`;

/** The kinds of file in the folder, in turn: clean, broken in each layer, and module references of every outcome. */
const KINDS: ((i: number) => string)[] = [
  // Clean, and large: its read finishes after the small files started with it.
  (i) => `${MINIMAL_SPEC}${`# padding ${i} ${"x".repeat(200)}\n`.repeat(2000)}`,
  (i) => MINIMAL_SPEC.replace("name: minimal", `name: Bad${i}`),
  (i) => `version: 1\nname: broken${i}\nstate: { a: [1, 2\n`,
  () => TOOLS_SPEC("../tools/tickets.ts"),
  () => TOOLS_SPEC("../tools/missing.ts"),
  () => TOOLS_SPEC("../tools"),
  () => TOOLS_SPEC("../tools/outside.ts"),
  (i) => JSON.stringify({ compilerOptions: { strict: true, n: i } }),
  (i) => `${MINIMAL_SPEC}# graphspec-disable-next-line schema\nbogus_${i}: true\nother_${i}: 1\n`,
];

let dir: string;
let outside: string;
beforeAll(() => {
  if (!existsSync(join(ROOT, "dist", "cli", "main.js")))
    throw new Error("dist/ is missing: run `npm run build` before the CLI tests");
  dir = mkdtempSync(join(tmpdir(), "graphspec-many-"));
  outside = mkdtempSync(join(tmpdir(), "graphspec-many-outside-"));
  writeFileSync(join(dir, "package.json"), "{}\n");
  mkdirSync(join(dir, "graphs"));
  mkdirSync(join(dir, "tools"));
  writeFileSync(join(dir, "tools", "tickets.ts"), "export const lookupTicket = () => 'found';\n");
  writeFileSync(join(outside, "outside.ts"), "export const lookupTicket = () => 'found';\n");
  symlinkSync(join(outside, "outside.ts"), join(dir, "tools", "outside.ts"));
  // More files than are read at once, each kind several times, in an order that mixes them.
  for (let i = 0; i < 90; i++) {
    const ext = i % KINDS.length === 7 ? "json" : "yaml";
    writeFileSync(
      join(dir, "graphs", `spec-${String(i).padStart(3, "0")}.${ext}`),
      KINDS[i % KINDS.length]!(i),
    );
  }
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const essentials = (d: Diagnostic) => ({
  file: d.file,
  line: d.line,
  column: d.column,
  endLine: d.endLine,
  endColumn: d.endColumn,
  rule: d.rule,
  severity: d.severity,
  message: d.message,
  hint: d.hint,
});

describe("validate over many files", () => {
  it("reports exactly what checking each file on its own reports, in the order of the files", async () => {
    const r = spawnSync(process.execPath, [BIN, "validate", "graphs", "--format", "json"], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(r.status, r.stderr).toBe(1);
    const cli = (JSON.parse(r.stdout) as Diagnostic[]).map(essentials);

    const files = Array.from({ length: 90 }, (_, i) => {
      const ext = i % KINDS.length === 7 ? "json" : "yaml";
      return `graphs/spec-${String(i).padStart(3, "0")}.${ext}`;
    });
    const alone: ReturnType<typeof essentials>[] = [];
    for (const file of files) {
      const doc = await readSpec(join(dir, file), { file });
      for (const d of await validate(doc)) alone.push(essentials(d));
    }
    // Every kind of finding is there, so the comparison covers each layer.
    expect(new Set(alone.map((d) => d.rule))).toEqual(
      new Set(["schema", "yaml-syntax", "unknown-module", "path-escape", "not-a-spec"]),
    );
    expect(cli).toEqual(alone);
  });
});

describe("inOrder", () => {
  /** A promise to settle by hand, so the test decides the order in which work finishes. */
  const deferred = () => {
    let resolve!: (v: string) => void;
    let reject!: (e: Error) => void;
    const promise = new Promise<string>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };

  it("yields in the order of the items however the work finishes, with at most `limit` unfinished", async () => {
    const work = Array.from({ length: 10 }, deferred);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const results = inOrder([...work.keys()], 3, (i) => {
      started.push(i);
      most = Math.max(most, ++running);
      return work[i]!.promise.finally(() => running--);
    });
    // Finish the later work first: nothing may come out before item 0.
    const seen: string[] = [];
    const consumer = (async () => {
      for await (const v of results) seen.push(v);
    })();
    await Promise.resolve();
    for (const i of [2, 1, 0, 5, 4, 3, 8, 7, 6, 9]) {
      // Wait until the item has been started: the window moves only as results are taken.
      await expect.poll(() => started.includes(i)).toBe(true);
      work[i]!.resolve(`r${i}`);
    }
    await consumer;
    expect(seen).toEqual(work.map((_, i) => `r${i}`));
    expect(most).toBe(3);
  });

  it("rethrows a failure in its turn, after the results before it, and never as an unhandled rejection", async () => {
    const work = Array.from({ length: 4 }, deferred);
    const results = inOrder([0, 1, 2, 3], 4, (i) => work[i]!.promise);
    work[2]!.reject(new Error("boom"));
    work[0]!.resolve("r0");
    work[1]!.resolve("r1");
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const v of results) seen.push(v);
      })(),
    ).rejects.toThrow("boom");
    expect(seen).toEqual(["r0", "r1"]);
  });
});
