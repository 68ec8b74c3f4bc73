/**
 * `graphspec validate -f github` read the way the GitHub Actions runner reads it: each output line
 * parsed by the runner's own workflow-command grammar (actions/runner `ActionCommand.TryParseV2`:
 * `::name k=v,k=v::data`, properties unescaped `%0D %0A %3A %2C %25`, data `%0D %0A %25`), on real
 * files whose names hold `,` `%` `:` `=`, `::`, CR and LF.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MINIMAL_SPEC } from "./helpers.js";
import { project, validateCli } from "./security/validate-project.js";

interface WorkflowCommand {
  command: string;
  properties: Record<string, string>;
  data: string;
}

/** The runner's unescaping: each replacement in its order, `%25` last. */
const runnerUnescape = (text: string, pairs: [string, string][]) =>
  pairs.reduce((s, [from, to]) => s.replaceAll(from, to), text);
const PROPERTY: [string, string][] = [
  ["%0D", "\r"],
  ["%0A", "\n"],
  ["%3A", ":"],
  ["%2C", ","],
  ["%25", "%"],
];
const DATA: [string, string][] = [
  ["%0D", "\r"],
  ["%0A", "\n"],
  ["%25", "%"],
];

/** A line as the runner parses it (TryParseV2), or undefined when it is no workflow command. */
function parseCommand(line: string): WorkflowCommand | undefined {
  const message = line.trimStart();
  if (!message.startsWith("::")) return undefined;
  const end = message.indexOf("::", 2);
  if (end < 0) return undefined;
  const info = message.slice(2, end);
  const space = info.indexOf(" ");
  const command = space < 0 ? info : info.slice(0, space);
  const properties: Record<string, string> = {};
  if (space > 0)
    for (const property of info
      .slice(space + 1)
      .trim()
      .split(",")
      .filter(Boolean)) {
      const eq = property.indexOf("=");
      if (eq > 0 && eq < property.length - 1)
        properties[property.slice(0, eq)] = runnerUnescape(property.slice(eq + 1), PROPERTY);
    }
  return { command, properties, data: runnerUnescape(message.slice(end + 2), DATA) };
}

/** The runner reads its output line by line: `\n`, `\r` and `\r\n` all end a line. */
const runnerLines = (stdout: string) => stdout.split(/\r\n|\r|\n/).filter((l) => l !== "");

const NAMES = [
  "graphs/a,b.yaml",
  "graphs/100%.yaml",
  "graphs/x:y.yaml",
  "graphs/line\nbreak.yaml",
  "graphs/car\rriage.yaml",
  "graphs/%0A%2C%3A.yaml",
  "graphs/we::ird=1,title=x.yaml",
];
/** A schema finding whose message quotes a key holding a newline, `%`, `:` and `,`. */
const SPEC = `${MINIMAL_SPEC}"odd\\nkey%: a,b\\r::warning::x": 1\n`;

describe("github annotations parse as the runner parses them", () => {
  it("one command per finding, each naming its real file and carrying the whole message, for file names holding , % : = :: CR LF", () => {
    const dir = project(Object.fromEntries(NAMES.map((n) => [n, SPEC])));
    const json = validateCli(dir, ["-f", "json", "graphs"]);
    const expected: { file: string; message: string; hint?: string; rule: string; line: number }[] =
      JSON.parse(json.stdout);
    expect(expected).toHaveLength(NAMES.length);

    const r = validateCli(dir, ["-f", "github", "graphs"]);
    expect(r.status).toBe(1);
    const commands = runnerLines(r.stdout).map(parseCommand);
    // Every line the runner sees is one of our annotations: nothing split off, nothing injected.
    expect(commands.map((c) => c?.command)).toEqual(expected.map(() => "error"));
    expect(commands.map((c) => c!.properties.file).sort()).toEqual([...NAMES].sort());
    for (const [i, c] of commands.entries()) {
      const d = expected[i]!;
      expect(existsSync(join(dir, c!.properties.file!))).toBe(true);
      expect(readFileSync(join(dir, c!.properties.file!), "utf8")).toBe(SPEC);
      expect(c!.properties).toMatchObject({
        file: d.file,
        line: String(d.line),
        title: `graphspec ${d.rule}`,
      });
      expect(Object.keys(c!.properties)).toEqual([
        "file",
        "line",
        "col",
        "endLine",
        "endColumn",
        "title",
      ]);
      expect(c!.data).toBe(d.hint ? `${d.message} (${d.hint})` : d.message);
      expect(c!.data).toContain("odd\nkey%: a,b\r::warning::x");
    }
  });

  it("names files relative to the working directory, however they were spelled (./, absolute, ..)", () => {
    const dir = project({ "graphs/a.yaml": SPEC, "graphs/b.yaml": SPEC, "graphs/c.yaml": SPEC });
    const r = validateCli(dir, [
      "-f",
      "github",
      "./graphs/a.yaml",
      join(dir, "graphs", "b.yaml"),
      "graphs/../graphs/c.yaml",
    ]);
    expect(runnerLines(r.stdout).map((l) => parseCommand(l)!.properties.file)).toEqual([
      "graphs/a.yaml",
      "graphs/b.yaml",
      "graphs/c.yaml",
    ]);
  });
});
