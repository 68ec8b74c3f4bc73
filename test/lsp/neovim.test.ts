/**
 * `graphspec lsp` in a real editor: headless Neovim (Debian's `neovim`; .ci/run installs it)
 * attaches the built server to a spec with an error and reads back the diagnostics, which must be
 * the ones `graphspec validate` prints; then renames a channel with Neovim's own rename and reads
 * the edited buffer back. Skipped where there is no `nvim`, except under CI. Run
 * `npm run build` first.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "bin", "graphspec.js");
const SCRIPT = join(ROOT, "test", "fixtures", "lsp", "neovim-diagnostics.lua");
const RENAME_SCRIPT = join(ROOT, "test", "fixtures", "lsp", "neovim-rename.lua");
const hasNeovim = spawnSync("nvim", ["--version"]).status === 0;

const dir = mkdtempSync(join(tmpdir(), "graphspec-nvim-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Under CI a missing Neovim fails the test rather than skip it (.ci/run installs it), as Chromium does.
describe.skipIf(!hasNeovim && !process.env.CI)("graphspec lsp in headless Neovim", () => {
  it("shows validate's findings, at validate's places", () => {
    mkdirSync(join(dir, "graphs"), { recursive: true });
    writeFileSync(join(dir, "package.json"), "{}");
    const spec = join(dir, "graphs", "polish.yaml");
    writeFileSync(
      spec,
      [
        "version: 1",
        "name: polish",
        "state:",
        '  draft: { type: string, default: "" }',
        "nodes:",
        "  write: { kind: set, values: { draft: first draft } }",
        '  review: { kind: set, values: { draft: "${{ state.drfat }}" } }',
        "edges:",
        "  - { from: START, to: write }",
        "  - { from: write, to: wrte }",
        "",
      ].join("\n"),
    );
    const out = join(dir, "diagnostics.jsonl");
    const nvim = spawnSync("nvim", ["--headless", "-u", "NONE", "-c", `luafile ${SCRIPT}`], {
      env: { ...process.env, GRAPHSPEC_BIN: BIN, PROJECT: dir, SPEC: spec, OUT: out },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(nvim.status, nvim.stderr).toBe(0);
    const shown = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { lnum: number; col: number; code: string; message: string });
    const cli = spawnSync(process.execPath, [BIN, "validate", spec, "--format", "json"], {
      encoding: "utf8",
    });
    const printed = JSON.parse(cli.stdout) as {
      rule: string;
      line: number;
      column: number;
      message: string;
      hint?: string;
    }[];
    expect(printed.map((d) => d.rule)).toEqual(
      expect.arrayContaining(["unknown-node", "unknown-state-key"]),
    );
    const key = (rule: string, line: number, column: number) => `${rule}@${line}:${column}`;
    expect(shown.map((d) => key(d.code, d.lnum + 1, d.col + 1)).sort()).toEqual(
      printed.map((d) => key(d.rule, d.line, d.column)).sort(),
    );
    const unknown = shown.find((d) => d.code === "unknown-node")!;
    expect(unknown.message).toContain("did you mean `write`?");
  });

  it("renames a channel with vim.lsp.buf.rename: every write and read in the buffer, re-checked clean", () => {
    mkdirSync(join(dir, "graphs"), { recursive: true });
    writeFileSync(join(dir, "package.json"), "{}");
    const spec = join(dir, "graphs", "rename.yaml");
    const lines = [
      "version: 1",
      "name: rename",
      "state:",
      '  draft: { type: string, default: "" }',
      "  drafts: { type: integer, reducer: sum, default: 0 }",
      "nodes:",
      "  write: { kind: set, values: { draft: first draft, drafts: 1 } }",
      "  review: { kind: set, values: { draft: \"${{ state.draft + ' (state.draft)' }}\" } }",
      "edges:",
      "  - { from: START, to: write }",
      "  - from: write",
      "    route:",
      '      - { when: "size(state.draft) > state.drafts", to: review }',
      "      - { default: END }",
      "  - { from: review, to: END }",
      "",
    ];
    writeFileSync(spec, lines.join("\n"));
    const out = join(dir, "renamed.yaml");
    const outDiagnostics = join(dir, "renamed-diagnostics.jsonl");
    const nvim = spawnSync("nvim", ["--headless", "-u", "NONE", "-c", `luafile ${RENAME_SCRIPT}`], {
      env: {
        ...process.env,
        GRAPHSPEC_BIN: BIN,
        PROJECT: dir,
        SPEC: spec,
        // On `draft:` in `state:` (Neovim's lines are 1-based, its columns 0-based).
        LINE: "4",
        COL: "3",
        NEW_NAME: "essay",
        OUT: out,
        OUT_DIAGNOSTICS: outDiagnostics,
      },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(nvim.status, nvim.stderr).toBe(0);
    const renamed = lines
      .join("\n")
      .replace("  draft: {", "  essay: {")
      .replace("values: { draft: first", "values: { essay: first")
      .replace('values: { draft: "${{ state.draft +', 'values: { essay: "${{ state.essay +')
      .replace("size(state.draft)", "size(state.essay)");
    expect(readFileSync(out, "utf8")).toBe(renamed);
    expect(readFileSync(outDiagnostics, "utf8").trim()).toBe("");
  });
});
