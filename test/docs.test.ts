/**
 * Keeps the documentation honest:
 * - every rule in the catalog has a page with What / Why / Example / Fix and a row in docs/rules.md;
 * - docs/executor.md lists every run error code with its phase and summary, and no other;
 * - every complete example in docs/spec.md (a block whose first line after comments is
 *   `version: 1`, or JSON with `"version": 1`) validates with no diagnostics at all;
 * - a rule page's output block that starts with `$ graphspec validate FILE` is what the built CLI
 *   prints for the spec block before it (run `npm run build` first);
 * - relative links and `#anchors` between the docs point at files and headings that exist.
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import {
  CATALOG,
  parseSpec,
  RULE_NAMES,
  RUN_ERROR_CODES,
  RUN_ERRORS,
  validate,
} from "../src/index.js";
import { formatExpected } from "./helpers.js";
import { type CodeBlock, codeBlocks } from "./support/markdown-blocks.js";

const ROOT = join(import.meta.dirname, "..");
const DOCS = join(ROOT, "docs");
const read = (path: string) => readFileSync(path, "utf8");

/** A YAML block whose first line that is not blank or a comment is `version: 1`; a JSON object with `"version": 1`. */
function isCompleteSpec(block: CodeBlock): boolean {
  if (block.lang === "yaml") {
    const first = block.text
      .split("\n")
      .find((l) => l.trim() !== "" && !l.trimStart().startsWith("#"));
    return first?.trim() === "version: 1";
  }
  if (block.lang === "json") {
    try {
      return (JSON.parse(block.text) as { version?: unknown }).version === 1;
    } catch {
      return false;
    }
  }
  return false;
}

/** Headings of a markdown file as GitHub turns them into anchors. */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  let inCode = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) inCode = !inCode;
    const m = !inCode && /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    out.add(
      m[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, "")
        .replace(/\s/g, "-"),
    );
  }
  return out;
}

describe("rule pages", () => {
  const indexPath = join(DOCS, "rules.md");
  const index = existsSync(indexPath) ? read(indexPath) : "";

  it("docs/rules.md exists", () => {
    expect(existsSync(indexPath)).toBe(true);
  });

  for (const rule of RULE_NAMES) {
    it(`docs/rules/${rule}.md has What, Why, Example and Fix`, () => {
      const page = join(DOCS, "rules", `${rule}.md`);
      expect(existsSync(page), `${relative(ROOT, page)} is missing`).toBe(true);
      const headings = [...read(page).matchAll(/^#{2,3}\s+(.+?)\s*$/gm)].map((m) => m[1]);
      const wanted = ["What", "Why", "Example", "Fix"];
      expect(headings.filter((h) => wanted.includes(h!))).toEqual(wanted);
    });

    it(`docs/rules.md lists ${rule} with its default severity`, () => {
      const row = index
        .split("\n")
        .find((l) => l.startsWith(`| [\`${rule}\`](rules/${rule}.md) |`));
      expect(row, `no row for ${rule} in docs/rules.md`).toBeDefined();
      expect(row!.split("|")[2]!.trim()).toBe(CATALOG[rule].severity);
    });
  }

  it("docs/rules.md lists no rule that is not in the catalog", () => {
    const listed = [...index.matchAll(/^\| \[`([a-z-]+)`\]\(rules\//gm)].map((m) => m[1]);
    expect(listed.filter((r) => !(RULE_NAMES as string[]).includes(r!))).toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
  });
});

describe("run error codes", () => {
  const executorDoc = read(join(DOCS, "executor.md"));
  const rows = [...executorDoc.matchAll(/^\| `([a-z-]+)` \| (\w+) \| (.+) \|$/gm)].map((m) => ({
    code: m[1]!,
    phase: m[2]!,
    summary: m[3]!,
  }));

  it("docs/executor.md lists each code of RUN_ERRORS, with its phase and summary, in order", () => {
    expect(rows).toEqual(RUN_ERROR_CODES.map((code) => ({ code, ...RUN_ERRORS[code] })));
  });
});

describe("complete examples in docs/spec.md validate cleanly", () => {
  const blocks = codeBlocks(read(join(DOCS, "spec.md"))).filter(isCompleteSpec);

  it("there are complete examples to check", () => {
    expect(blocks.length).toBeGreaterThan(10);
  });

  for (const block of blocks) {
    const name = /^\s*"?name"?:\s*"?([\w-]+)/m.exec(block.text)?.[1] ?? "?";
    it(`${name} (docs/spec.md line ${block.line})`, async () => {
      // Examples are written as files in graphs/, so `../tools/tickets.ts` is the real tools/tickets.ts.
      const file = join(ROOT, "graphs", `docs-example-${block.line}.${block.lang}`);
      const doc = parseSpec(block.text, { file: `docs/spec.md:${block.line}`, root: ROOT }, file);
      expect(formatExpected(await validate(doc))).toEqual([]);
    });
  }
});

/** Pages whose example cannot be rebuilt from the page's text alone. */
const NOT_REPLAYABLE: Record<string, string> = {
  "io.md": "needs a file its user may not read",
  "encoding.md": "needs Latin-1 bytes, which a UTF-8 page cannot hold",
};

describe("rule pages show the CLI's real output", () => {
  const pages = existsSync(join(DOCS, "rules")) ? readdirSync(join(DOCS, "rules")).sort() : [];

  for (const page of pages.filter((p) => p.endsWith(".md") && !(p in NOT_REPLAYABLE))) {
    const blocks = codeBlocks(read(join(DOCS, "rules", page)));
    blocks.forEach((block, i) => {
      const command = /^\$ graphspec (validate .*\S)\s*$/m.exec(block.text.split("\n")[0]!);
      if (!command) return;
      it(`${page} line ${block.line}`, () => {
        expect(existsSync(join(ROOT, "dist", "cli", "main.js")), "run `npm run build` first").toBe(
          true,
        );
        const args = command[1]!.split(/\s+/);
        const specPath = args.at(-1)!;
        // The spec is the nearest YAML or JSON block before the output; a JS block whose first line
        // is `// path` is a module it needs; a block whose fence says `file=path` is that file.
        const fileOf = (b: (typeof blocks)[number]) => /(?:^|\s)file=(\S+)/.exec(b.meta)?.[1];
        const spec = blocks
          .slice(0, i)
          .findLast((b) => (b.lang === "yaml" || b.lang === "json") && !fileOf(b));
        expect(spec, "no spec block before the output").toBeDefined();
        const dir = mkdtempSync(join(tmpdir(), "graphspec-docs-"));
        try {
          const files: Record<string, string> = { "package.json": "{}", [specPath]: spec!.text };
          for (const b of blocks.slice(0, i)) {
            const path = /^\/\/ (\S+\.m?[jt]s)$/.exec(b.text.split("\n")[0]!)?.[1] ?? fileOf(b);
            if (path) files[path] = b.text;
          }
          for (const [path, text] of Object.entries(files)) {
            mkdirSync(dirname(join(dir, path)), { recursive: true });
            writeFileSync(join(dir, path), text);
          }
          const result = spawnSync(process.execPath, [join(ROOT, "bin", "graphspec.js"), ...args], {
            cwd: dir,
            encoding: "utf8",
            env: { ...process.env, NO_COLOR: "1" },
          });
          const lines = (text: string) =>
            text
              .split("\n")
              .map((l) => l.trimEnd())
              .filter(Boolean);
          expect(lines(result.stdout + result.stderr)).toEqual(lines(block.text).slice(1));
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });
    });
  }
});

describe("links between the docs resolve", () => {
  const files = [
    join(DOCS, "spec.md"),
    join(DOCS, "rules.md"),
    join(DOCS, "design.md"),
    ...readdirSync(join(DOCS, "rules")).map((f) => join(DOCS, "rules", f)),
  ].filter((f) => f.endsWith(".md") && existsSync(f));

  for (const file of files) {
    it(relative(ROOT, file), () => {
      const text = read(file);
      const broken: string[] = [];
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue; // https:, mailto:
        const [path, anchor] = target!.split("#");
        const dest = path ? join(dirname(file), path) : file;
        if (!existsSync(dest)) broken.push(`${target}: no such file`);
        else if (anchor && dest.endsWith(".md") && !anchors(read(dest)).has(anchor))
          broken.push(`${target}: no such heading`);
      }
      expect(broken).toEqual([]);
    });
  }
});
