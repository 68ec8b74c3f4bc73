/**
 * `graphspec validate -f sarif` checked against its real consumers: the SARIF 2.1.0 JSON schema
 * (as shipped in @microsoft/jest-sarif, compiled by Ajv) and Microsoft's SARIF multitool with the
 * rules GitHub code scanning applies on upload (GH*). Real CLI, real files.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import Ajv04Module from "ajv-draft-04";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { CATALOG } from "../src/index.js";
import { MINIMAL_SPEC } from "./helpers.js";
import { project, ROOT, tempDir, validateCli } from "./security/validate-project.js";

const require = createRequire(import.meta.url);
// CommonJS packages: their default export is under `default` when imported from ESM.
const Ajv04 = Ajv04Module.default;
const addFormats = addFormatsModule.default;

/** One duplicate-key finding (10:1; made a warning below): the last `name` wins, and is valid. */
const BAD = `${MINIMAL_SPEC.replace("name: minimal", "name: Minimal")}name: again\n`;

interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  help: { text: string; markdown: string };
  helpUri: string;
  defaultConfiguration: { level: string };
}

/** A project with specs named every way a workflow might, and the SARIF log of validating them. */
function sarifOf(): { dir: string; stdout: string; log: SarifLog } {
  const outside = tempDir("graphspec-outside-");
  writeFileSync(join(outside, "x.yaml"), MINIMAL_SPEC);
  const dir = project({
    "graphs/bad.yaml": BAD,
    "graphs/my spec é#1.yaml": BAD,
    "graphs/warn.yaml": MINIMAL_SPEC.replace("name: minimal", "name: Warn"),
  });
  symlinkSync(join(outside, "x.yaml"), join(dir, "graphs", "out.yaml"));
  const r = validateCli(dir, [
    "-f",
    "sarif",
    "--rule",
    "duplicate-key=warning",
    join(dir, "graphs", "bad.yaml"),
    "./graphs/my spec é#1.yaml",
    "graphs/warn.yaml",
    "graphs/out.yaml",
  ]);
  expect(r.status).toBe(1);
  return { dir, stdout: r.stdout, log: JSON.parse(r.stdout) };
}

interface SarifLog {
  runs: {
    tool: { driver: { rules: SarifRule[] } };
    originalUriBaseIds: Record<string, { uri: string }>;
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } }[];
    }[];
  }[];
}

describe("sarif output against the SARIF 2.1.0 schema and GitHub code scanning", () => {
  it("validates against the SARIF 2.1.0 JSON schema shipped in @microsoft/jest-sarif", () => {
    const schema = JSON.parse(
      readFileSync(
        require.resolve("@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json"),
        "utf8",
      ),
    );
    // The schema's language-tag pattern is not valid with the `u` flag (a stray `]`): compile it as
    // written for JavaScript regular expressions without it, as the schema's own tools do.
    const ajv = new Ajv04({ allErrors: true, strict: false, unicodeRegExp: false });
    addFormats(ajv);
    const check = ajv.compile(schema);
    const { log } = sarifOf();
    expect(log.runs[0]!.results).toHaveLength(4);
    check(log);
    expect(check.errors ?? []).toEqual([]);
  });

  it("every rule has a full description and help (text and markdown) from docs/rules/<rule>.md, and a help URI", () => {
    const rules = sarifOf().log.runs[0]!.tool.driver.rules;
    expect(rules.map((r) => r.id)).toEqual(Object.keys(CATALOG));
    for (const rule of rules) {
      const page = readFileSync(join(ROOT, "docs", "rules", `${rule.id}.md`), "utf8");
      expect(rule.shortDescription.text, rule.id).toBe(
        CATALOG[rule.id as keyof typeof CATALOG].summary,
      );
      // The "What" section's first paragraph, as plain text.
      const what = page
        .split("## What")[1]!
        .trim()
        .split(/\n\s*\n/)[0]!;
      expect(rule.fullDescription.text, rule.id).toBe(
        rule.fullDescription.text.replace(/\s+/g, " ").trim(),
      );
      expect(rule.fullDescription.text.length, rule.id).toBeGreaterThan(20);
      const firstWords = what
        .replace(/[`*[\]]/g, "")
        .split(/\s+/)
        .slice(0, 3)
        .join(" ");
      expect(rule.fullDescription.text, rule.id).toContain(firstWords);
      for (const section of ["## What", "## Why", "## Example", "## Fix"])
        expect(rule.help.markdown, rule.id).toContain(section);
      expect(rule.help.text, rule.id).toMatch(/^What$/m);
      expect(rule.help.text, rule.id).not.toMatch(/^#{1,6} (What|Why|Example|Fix)$/m);
      // Links in the page work where the help is shown: no relative link is left.
      for (const [, href] of rule.help.markdown.matchAll(/\]\(([^)\s]+)\)/g))
        expect(href, rule.id).toMatch(/^https:\/\//);
      expect(rule.helpUri).toBe(
        `https://github.com/graphspec/graphspec/blob/main/docs/rules/${rule.id}.md`,
      );
      expect(rule.name).toMatch(/^[A-Z][A-Za-z0-9]*$/);
    }
    const schema = rules.find((r) => r.id === "schema")!;
    expect(schema.help.markdown).toContain(
      "(https://github.com/graphspec/graphspec/blob/main/schema/graph.schema.json)",
    );
  });

  it("artifact URIs are relative to the working directory on %SRCROOT%, even for absolute arguments", () => {
    const { dir, log } = sarifOf();
    const run = log.runs[0]!;
    expect(run.originalUriBaseIds).toEqual({ "%SRCROOT%": { uri: pathToFileURL(`${dir}/`).href } });
    const locations = new Set(
      run.results.map((r) => JSON.stringify(r.locations[0]!.physicalLocation.artifactLocation)),
    );
    expect([...locations].map((l) => JSON.parse(l))).toEqual([
      { uri: "graphs/out.yaml", uriBaseId: "%SRCROOT%" },
      { uri: "graphs/bad.yaml", uriBaseId: "%SRCROOT%" },
      { uri: "graphs/my%20spec%20%C3%A9%231.yaml", uriBaseId: "%SRCROOT%" },
      { uri: "graphs/warn.yaml", uriBaseId: "%SRCROOT%" },
    ]);
    for (const result of run.results)
      expect(run.tool.driver.rules[result.ruleIndex]!.id).toBe(result.ruleId);
  });

  it("a file outside the working directory keeps an absolute file: URI (no relative one would be true)", () => {
    const dir = project({ "graphs/bad.yaml": BAD });
    const r = validateCli(join(dir, "graphs"), [
      "-f",
      "sarif",
      join(dir, "graphs", "bad.yaml"),
      "../graphs/bad.yaml",
    ]);
    const log: SarifLog = JSON.parse(r.stdout);
    expect(log.runs[0]!.results[0]!.locations[0]!.physicalLocation.artifactLocation).toEqual({
      uri: "bad.yaml",
      uriBaseId: "%SRCROOT%",
    });
    const outside = validateCli(join(dir, "graphs"), ["-f", "sarif", "../package.json"]);
    // `package.json` named explicitly is checked: not a spec; its URI is absolute.
    const location = (JSON.parse(outside.stdout) as SarifLog).runs[0]!.results[0]!.locations[0]!;
    expect(location.physicalLocation.artifactLocation).toEqual({
      uri: pathToFileURL(join(dir, "package.json")).href,
    });
  });

  it("Microsoft's SARIF multitool, with GitHub's ingestion rules, finds no GH problem and no error", () => {
    const { dir, stdout } = sarifOf();
    const input = join(dir, "graphspec.sarif");
    const output = join(dir, "multitool.sarif");
    writeFileSync(input, stdout);
    // The package's export is the path of the binary for this platform (a .NET program); its
    // bin.js runs it through a shell, which would split `Gh;Sarif`, so it is called directly.
    const multitool: string = require("@microsoft/sarif-multitool");
    const r = spawnSync(
      multitool,
      ["validate", "--rule-kind", "Gh;Sarif", "--level", "Error;Warning;Note", "-o", output, input],
      { encoding: "utf8", env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: "1" } },
    );
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const found: { ruleId: string; level: string; message: { arguments?: string[] } }[] =
      JSON.parse(readFileSync(output, "utf8")).runs[0].results;
    // The multitool analysed the file: it reports its own notes (SARIF2009 conventional ids, …).
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((f) => f.ruleId.startsWith("GH"))).toEqual([]);
    expect(found.filter((f) => f.level === "error" || f.level === "warning")).toEqual([]);
    // Notably not SARIF2016 (file URIs should be relative), which absolute arguments used to give.
    expect(found.filter((f) => f.ruleId === "SARIF2016")).toEqual([]);
  });
});
