/**
 * `graphspec validate` on one-line JSON specs of hundreds of kilobytes with hundreds of findings
 * (minified, generated): what it prints grows with the findings shown, never with the line's
 * length times the findings. Before, a 200 KB spec printed the whole line under every finding and a
 * 750 KB one died with `RangeError: Invalid string length` (exit 2, no findings). Real CLI, real files.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { graphspecIn, scratchDir } from "./support/cli.js";

const dir = scratchDir("long-lines");
const graphspec = graphspecIn(dir);

/** Findings of one rule in one file printed in full (src/cli/format/pretty.ts MAX_PER_RULE). */
const PRINTED = 20;

/** A valid spec padded to about `bytes` on one line, plus `missing` edges to unknown nodes. */
function oneLineSpec(name: string, bytes: number, missing: number): string {
  const edges: { from: string; to: string }[] = [
    { from: "START", to: "greet" },
    { from: "greet", to: "END" },
  ];
  for (let i = 0; i < missing; i++) edges.push({ from: "greet", to: `missing_${i}` });
  const spec = {
    version: 1,
    name: "long",
    description: "",
    state: { greeting: { type: "string" } },
    nodes: { greet: { kind: "set", values: { greeting: "hello" } } },
    edges,
  };
  const bare = JSON.stringify(spec).length;
  spec.description = "d".repeat(Math.max(0, bytes - bare));
  const text = JSON.stringify(spec);
  writeFileSync(join(dir, name), text);
  return text;
}

describe("validate on a long one-line spec", () => {
  it("quotes a window of the line and counts what it does not print (200 KB, 300 findings)", () => {
    const text = oneLineSpec("200k.json", 200_000, 300);
    expect(text).not.toContain("\n");
    const r = graphspec("validate", "200k.json");
    expect(r.stderr).not.toContain("RangeError");
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("✖ 300 errors, 0 warnings in 1 file");
    // 20 findings of ~4 short lines each: a few kilobytes, not 300 × 200 KB.
    expect(Buffer.byteLength(r.stdout)).toBeLessThan(PRINTED * 1_000);
    expect(r.stdout.match(/\[unknown-node\]/g)).toHaveLength(PRINTED);
    expect(r.stdout).toContain(
      `… and ${300 - PRINTED} more \`unknown-node\` findings in 200k.json`,
    );
    expect(r.stdout).not.toContain("d".repeat(200));
  });

  it("keeps the caret under the span when the window is cut on both sides", () => {
    oneLineSpec("caret.json", 50_000, 10);
    const r = graphspec("validate", "caret.json");
    expect(r.status).toBe(1);
    const out = r.stdout.split("\n");
    const at = out.findIndex((l) => l.includes("unknown node `missing_5`"));
    const quoted = out[at + 2]!;
    const carets = out[at + 3]!;
    expect(quoted.startsWith("1 | …")).toBe(true);
    expect(quoted.endsWith("…")).toBe(true);
    const column = carets.indexOf("^");
    expect(carets.slice(column)).toMatch(/^\^{11} /);
    expect(quoted.slice(column, column + 11)).toBe('"missing_5"');
    // 60 characters either side of the span, plus the two ellipses.
    expect(quoted.length - "1 | ".length).toBe(60 + 11 + 60 + 2);
  });

  it("never cuts a window inside a character outside the BMP", () => {
    // A span longer than the window's limit ends its quote inside a run of emoji; the next
    // finding's window starts inside the same run.
    const emoji = `${"😀".repeat(80)}x`;
    writeFileSync(
      join(dir, "astral.json"),
      JSON.stringify({
        version: 1,
        name: "astral",
        description: "d".repeat(5_000),
        state: { greeting: { type: "string" } },
        nodes: { greet: { kind: "set", values: { greeting: "hello" } } },
        edges: [
          { from: "START", to: "greet" },
          { from: "greet", to: emoji },
          { from: "greet", to: "gone" },
        ],
      }),
    );
    const r = graphspec("validate", "astral.json");
    expect(r.status).toBe(1);
    expect(r.stdout.match(/\[unknown-node\]/g)).toHaveLength(2);
    // A lone surrogate reaches the terminal as U+FFFD.
    expect(r.stdout).not.toContain("\ufffd");
    expect(r.stdout).toMatch(/\| …😀/);
    expect(r.stdout).toMatch(/😀…\n/);
  });

  it("prints its findings for a 750 KB spec instead of crashing", () => {
    oneLineSpec("750k.json", 750_000, 1_000);
    const r = graphspec("validate", "750k.json");
    expect(r.stderr).not.toContain("RangeError");
    expect(r.stderr).not.toContain("internal error");
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("✖ 1000 errors, 0 warnings in 1 file");
    expect(Buffer.byteLength(r.stdout)).toBeLessThan(PRINTED * 1_000);
    expect(r.stdout).toContain(
      `… and ${1_000 - PRINTED} more \`unknown-node\` findings in 750k.json`,
    );
  });

  it("keeps every finding in machine formats, none carrying the line", () => {
    oneLineSpec("machine.json", 750_000, 1_000);
    const json = graphspec("validate", "-f", "json", "machine.json");
    expect(json.status).toBe(1);
    const findings = JSON.parse(json.stdout) as { rule: string; message: string; column: number }[];
    expect(findings).toHaveLength(1_000);
    expect(new Set(findings.map((f) => f.message)).size).toBe(1_000);
    expect(findings.every((f) => f.rule === "unknown-node")).toBe(true);
    for (const format of ["json", "sarif", "github"]) {
      const r = format === "json" ? json : graphspec("validate", "-f", format, "machine.json");
      expect(r.status).toBe(1);
      // A kilobyte per finding at most: the 750 KB line is in none of them.
      expect(Buffer.byteLength(r.stdout)).toBeLessThan(1_000 * 1_000 + 50_000);
      expect(r.stdout).not.toContain("d".repeat(200));
    }
  });
});
