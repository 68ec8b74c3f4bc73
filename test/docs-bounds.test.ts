/**
 * Keeps docs/security.md's table of bounds honest against the built CLI and the code:
 * - every `--flag` it names is in the `--help` of each command it names for it (or, when it names
 *   none, of its section's commands), and the default the table gives is the one `--help` gives;
 * - every code in its last column is one a user can meet: a rule, a run error code, or an error
 *   code the server answers with.
 * Run `npm run build` first.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RULE_NAMES, RUN_ERROR_CODES } from "../src/index.js";

const ROOT = join(import.meta.dirname, "..");
const BIN = join(ROOT, "bin", "graphspec.js");
const COMMANDS = ["run", "resume", "serve", "dev", "validate"] as const;
type Command = (typeof COMMANDS)[number];

/** The section rows of the table (`| **Server** (…) | | |`) and the commands their flags belong to. */
const SECTION_COMMANDS: Record<string, Command[]> = {
  Specs: ["validate"],
  "`validate --load-modules`": ["validate"],
  "`validate` output": ["validate"],
  Runs: ["run"],
  Server: ["serve", "dev"],
};

interface Row {
  section: string;
  cells: string[];
  line: number;
}

function boundsTable(): Row[] {
  const lines = readFileSync(join(ROOT, "docs", "security.md"), "utf8").split("\n");
  const start = lines.indexOf("## Bounds");
  expect(start, "docs/security.md has a `## Bounds` section").toBeGreaterThan(-1);
  const rows: Row[] = [];
  let section = "";
  let inTable = false;
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith("## ")) break;
    if (!line.startsWith("|")) {
      if (inTable) break;
      continue;
    }
    inTable = true;
    // Cells split on `|` outside backticks (`memory\|sqlite` has none here, but `|` in code may).
    const cells = line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim());
    if (cells[0] === "bound" || /^-+$/.test(cells[0]!)) continue;
    const heading = /^\*\*(.+?)\*\*/.exec(cells[0]!);
    if (heading && cells.slice(1).every((c) => c === "")) {
      section = heading[1]!;
      continue;
    }
    rows.push({ section, cells, line: i + 1 });
  }
  return rows;
}

const helps = new Map<Command, string>();
function help(command: Command): string {
  let text = helps.get(command);
  if (text === undefined) {
    const r = spawnSync(process.execPath, [BIN, command, "--help"], { encoding: "utf8" });
    expect(r.status, `graphspec ${command} --help: ${r.stderr}`).toBe(0);
    text = r.stdout;
    helps.set(command, text);
  }
  return text;
}

/** Each `--flag` of an option cell, with the commands named in parentheses right after it, if any. */
function flagsOf(cell: string): { flag: string; commands?: Command[] }[] {
  const found: { flag: string; commands?: Command[] }[] = [];
  for (const m of cell.matchAll(/`(--[a-z-]+)(?: [A-Z]+)?`(?:[^`(;]*)(?:\(([^)]*)\))?/g)) {
    const named = [...(m[2] ?? "").matchAll(/`([a-z]+)`/g)].map((n) => n[1]!);
    const commands =
      named.length > 0 && named.every((n) => (COMMANDS as readonly string[]).includes(n))
        ? (named as Command[])
        : undefined;
    found.push({ flag: m[1]!, ...(commands ? { commands } : {}) });
  }
  return found;
}

const UNIT: Record<string, number> = {
  "": 1,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** The quantities in a text, in bytes or milliseconds ("16 MiB", "10 s", "1h", "1,000", "2000"). */
function quantities(text: string): number[] {
  return [...text.matchAll(/(\d[\d,]*(?:\.\d+)?)\s*(KiB|MiB|GiB|ms|s|m|h)?\b/gi)].map(
    (m) => Number(m[1]!.replace(/,/g, "")) * UNIT[(m[2] ?? "").toLowerCase()]!,
  );
}

/** The codes the server answers with (`new ApiError(413, "body-too-large"`, `notFound("run"` …). */
function serverCodes(): Set<string> {
  const codes = new Set<string>();
  const dir = join(ROOT, "src", "server");
  for (const f of readdirSync(dir).filter((n) => n.endsWith(".ts"))) {
    const text = readFileSync(join(dir, f), "utf8");
    for (const m of text.matchAll(/ApiError\(\s*\d{3},\s*"([a-z-]+)"/g)) codes.add(m[1]!);
    for (const m of text.matchAll(/notFound\(\s*"([a-z]+)"/g)) codes.add(`${m[1]}-not-found`);
  }
  return codes;
}

describe("docs/security.md: the table of bounds", () => {
  const rows = boundsTable();

  it("has a row for each bound, in its sections", () => {
    expect(rows.length).toBeGreaterThan(30);
    for (const r of rows) {
      expect(Object.keys(SECTION_COMMANDS), `line ${r.line}`).toContain(r.section);
      expect(
        r.cells,
        `line ${r.line}: bound, protects, default, option, when it is hit`,
      ).toHaveLength(5);
    }
  });

  for (const r of rows)
    for (const { flag, commands } of flagsOf(r.cells[3]!))
      for (const command of commands ?? SECTION_COMMANDS[r.section]!)
        it(`line ${r.line}: graphspec ${command} ${flag}, with the table's default`, () => {
          const line = help(command)
            .split("\n")
            .findIndex((l) => new RegExp(`^\\s+(-\\w, )?${flag}\\b`).test(l));
          expect(line, `${flag} in graphspec ${command} --help`).toBeGreaterThan(-1);
          // The flag's description may go on to the next lines.
          const text = help(command)
            .split("\n")
            .slice(line, line + 3)
            .join(" ");
          const given = /\(default ([^;)]+)/.exec(text)?.[1];
          if (given === undefined) return;
          if (given.trim() === "none") {
            expect(r.cells[2], `${flag}: --help says no default`).toBe("none");
            return;
          }
          const [value] = quantities(given);
          expect(quantities(r.cells[2]!), `${flag}: --help says default ${given}`).toContain(value);
        });

  it("names only codes a user can meet", () => {
    const known = new Set<string>([...RULE_NAMES, ...RUN_ERROR_CODES, ...serverCodes()]);
    const named = rows.flatMap((r) =>
      [...r.cells[4]!.matchAll(/`(?:\d{3} )?([a-z]+(?:-[a-z]+)*)`/g)].map((m) => ({
        code: m[1]!,
        line: r.line,
      })),
    );
    expect(named.length).toBeGreaterThan(15);
    expect(named.filter(({ code }) => !known.has(code))).toEqual([]);
  });
});
