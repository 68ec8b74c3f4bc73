/**
 * The real CLI, as users and CI run it: `node bin/graphspec.js` spawned against files in temp dirs.
 * It runs the built code (dist/): `npm test` builds first; alone, run `npm run build` before.
 * Findings come from rules that need nothing else (schema, yaml-syntax, duplicate-key, ...);
 * a warning is made with `--rule schema=warning` so no test depends on a rule still in the works.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOG } from "../src/index.js";
import { MINIMAL_SPEC } from "./helpers.js";

const ROOT = join(import.meta.dirname, "..");
const BIN = join(ROOT, "bin", "graphspec.js");

const VALID = MINIMAL_SPEC;
/** One schema error, at 2:7-2:14. */
const BAD = VALID.replace("name: minimal", "name: Minimal");
const BAD_JSON = JSON.stringify({ version: 1, name: "Bad" });
const NAME_HINT =
  "Graph id: lower-case letters, digits, `_` and `-`, starting with a letter. Used by `graphspec run NAME` and as the assistant id on the server.";

interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
}

let tmp: string;
let counter = 0;
beforeAll(() => {
  if (!existsSync(join(ROOT, "dist", "cli", "main.js")))
    throw new Error("dist/ is missing: run `npm run build` before the CLI tests");
  tmp = mkdtempSync(join(tmpdir(), "graphspec-cli-"));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A fresh directory holding `files` (path → content). */
function project(files: Record<string, string>): string {
  const dir = join(tmp, `p${++counter}`);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  mkdirSync(dir, { recursive: true });
  return dir;
}

function run(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...withoutColorSettings(process.env), ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (b) => (stdout += b));
    child.stderr.on("data", (b) => (stderr += b));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

function withoutColorSettings(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env))
    if (v !== undefined && !["NO_COLOR", "FORCE_COLOR", "CI", "GITHUB_ACTIONS"].includes(k))
      out[k] = v;
  return out;
}

/** Whether text holds terminal escape sequences (colour). */
const hasAnsi = (text: string) => stripVTControlCharacters(text) !== text;

describe.concurrent("exit codes", () => {
  it("0 for a clean run, with a summary on stderr and nothing on stdout", async () => {
    const r = await run(["validate", "ok.yaml"], project({ "ok.yaml": VALID }));
    expect(r).toEqual({ status: 0, stdout: "", stderr: "✔ 1 file valid\n" });
  });

  it("1 when there are errors", async () => {
    const r = await run(["validate", "bad.yaml"], project({ "bad.yaml": BAD }));
    expect(r.status).toBe(1);
    expect(r.stderr).toBe("✖ 1 error, 0 warnings in 1 file\n");
  });

  it("2 for an unknown flag, format, rule or level, a bad --max-warnings, and unknown commands", async () => {
    const dir = project({ "ok.yaml": VALID });
    const cases: [string[], RegExp][] = [
      [["validate", "--bogus", "ok.yaml"], /Unknown option '--bogus'/],
      [["validate", "-f", "xml", "ok.yaml"], /--format must be one of pretty, json, github, sarif/],
      [
        ["validate", "--rule", "shema=off", "ok.yaml"],
        /unknown rule "shema" \(did you mean `schema`\?\)/,
      ],
      [["validate", "--rule", "schema=loud", "ok.yaml"], /level must be off, warning or error/],
      [["validate", "--max-warnings", "many", "ok.yaml"], /--max-warnings takes a whole number/],
      [["frobnicate"], /unknown command "frobnicate"/],
    ];
    for (const [args, message] of cases) {
      const r = await run(args, dir);
      expect(r.status, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe("");
    }
  });

  it("2 when a path or glob matches no file", async () => {
    const dir = project({ "ok.yaml": VALID });
    for (const arg of ["missing.yaml", "nothing/*.yaml", "*.json"]) {
      const r = await run(["validate", arg], dir);
      expect(r.status, arg).toBe(2);
      expect(r.stderr).toContain(`no spec files match "${arg}"`);
    }
    // Without arguments it validates graphs/, which is not there.
    expect((await run(["validate"], dir)).status).toBe(2);
  });

  it("validates graphs/ by default", async () => {
    const r = await run(["validate"], project({ "graphs/a.yaml": VALID, "graphs/b.yaml": BAD }));
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("graphs/b.yaml:2:7: error:");
    expect(r.stderr).toBe("✖ 1 error, 0 warnings in 2 files\n");
  });
});

describe.concurrent("files", () => {
  it("validates many files in one run and reports each by the path given", async () => {
    const dir = project({ "ok.yaml": VALID, "bad.yaml": BAD, "sub/worse.json": BAD_JSON });
    const r = await run(["validate", "ok.yaml", "bad.yaml", "sub/worse.json", "-f", "json"], dir);
    expect(r.status).toBe(1);
    const files = new Set((JSON.parse(r.stdout) as { file: string }[]).map((d) => d.file));
    expect([...files]).toEqual(["bad.yaml", "sub/worse.json"]);
    const pretty = await run(["validate", "ok.yaml", "bad.yaml", "sub/worse.json"], dir);
    expect(pretty.stderr).toMatch(/ in 3 files\n$/);
  });

  // Every file here is invalid, so the files reported are exactly the files validated.
  const tree = {
    "specs/a.yaml": BAD,
    "specs/sub/b.yml": BAD,
    "specs/sub/c.json": BAD_JSON,
    "specs/sub/x.test.yaml": BAD,
    "specs/node_modules/dep/d.yaml": BAD,
    "specs/.hidden/e.yaml": BAD,
    "specs/package.json": BAD_JSON,
    "specs/tsconfig.json": BAD_JSON,
    "specs/notes.txt": "not a spec",
  };
  const reported = async (args: string[], cwd: string) => {
    const r = await run(["validate", "-f", "json", ...args], cwd);
    return [...new Set((JSON.parse(r.stdout) as { file: string }[]).map((d) => d.file))].sort();
  };

  it("expands a directory, skipping node_modules, dot-dirs, *.test.yaml and package.json", async () => {
    const dir = project(tree);
    const expected = ["specs/a.yaml", "specs/sub/b.yml", "specs/sub/c.json"];
    expect(await reported(["specs"], dir)).toEqual(expected);
    expect(await reported(["specs/"], dir)).toEqual(expected);
    expect(await reported(["./specs"], dir)).toEqual(expected);
    expect(await reported([join(dir, "specs")], dir)).toEqual(expected.map((f) => join(dir, f)));
  });

  it("expands globs with the same exclusions", async () => {
    const dir = project(tree);
    expect(await reported(["specs/**/*.yaml"], dir)).toEqual(["specs/a.yaml"]);
    expect(await reported(["specs/**/*.{yml,json}"], dir)).toEqual([
      "specs/sub/b.yml",
      "specs/sub/c.json",
    ]);
  });

  it("always validates what is named explicitly, even where expansion would skip it", async () => {
    const dir = project(tree);
    const named = [
      "specs/sub/x.test.yaml",
      "specs/node_modules/dep/d.yaml",
      "specs/.hidden/e.yaml",
      "specs/package.json",
    ];
    expect(await reported(named, dir)).toEqual([...named].sort());
    // A directory or glob base the user names is honoured too: only what is below it is filtered.
    expect(await reported(["specs/.hidden"], dir)).toEqual(["specs/.hidden/e.yaml"]);
    expect(await reported(["specs/.hidden/*.yaml"], dir)).toEqual(["specs/.hidden/e.yaml"]);
    expect(await reported(["specs/node_modules/dep"], dir)).toEqual([
      "specs/node_modules/dep/d.yaml",
    ]);
  });

  it("reports a file listed twice once", async () => {
    const r = await run(
      ["validate", "bad.yaml", "bad.yaml", "*.yaml"],
      project({ "bad.yaml": BAD }),
    );
    expect(r.stderr).toBe("✖ 1 error, 0 warnings in 1 file\n");
  });
});

describe.concurrent("output formats", () => {
  it("json: one object per diagnostic with every field", async () => {
    const r = await run(["validate", "-f", "json", "bad.yaml"], project({ "bad.yaml": BAD }));
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual([
      {
        file: "bad.yaml",
        line: 2,
        column: 7,
        endLine: 2,
        endColumn: 14,
        rule: "schema",
        severity: "error",
        message: '"Minimal" is not a valid name',
        hint: NAME_HINT,
      },
    ]);
    const clean = await run(
      ["validate", "--format=json", "ok.yaml"],
      project({ "ok.yaml": VALID }),
    );
    expect(JSON.parse(clean.stdout)).toEqual([]);
  });

  it("github: workflow commands, one per diagnostic, summary on stderr", async () => {
    const dir = project({ "bad.yaml": BAD });
    const r = await run(["validate", "-f", "github", "bad.yaml"], dir);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe(
      `::error file=bad.yaml,line=2,col=7,endLine=2,endColumn=14,title=graphspec schema::"Minimal" is not a valid name (${NAME_HINT})\n`,
    );
    const warn = await run(
      ["validate", "-f", "github", "--rule", "schema=warning", "bad.yaml"],
      dir,
    );
    expect(warn.status).toBe(0);
    expect(warn.stdout).toMatch(/^::warning file=bad\.yaml,line=2,/);
  });

  it("github: escapes % : , in properties and % and newlines in messages", async () => {
    // The unknown key's name carries a newline and a `%` into the message.
    const text = `${VALID}"odd\\nkey%": 1\n`;
    const r = await run(
      ["validate", "-f", "github", "we,ird:100%.yaml"],
      project({ "we,ird:100%.yaml": text }),
    );
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^::error file=we%2Cird%3A100%25\.yaml,line=10,col=1,/);
    expect(lines[0]).toContain("odd%0Akey%25");
    expect(lines[0]).not.toMatch(/%(?![0-9A-F]{2})/);
  });

  it("sarif: a valid SARIF 2.1.0 log whose results point at the right rule", async () => {
    const dir = project({ "my spec.yaml": BAD, "dup.yaml": `${VALID}name: again\n` });
    const r = await run(["validate", "-f", "sarif", "my spec.yaml", "dup.yaml"], dir);
    expect(r.status).toBe(1);
    const log = JSON.parse(r.stdout);
    expect(log.version).toBe("2.1.0");
    expect(log.$schema).toMatch(/sarif-2\.1\.0/);
    expect(log.runs).toHaveLength(1);
    const [run0] = log.runs;
    expect(run0.tool.driver.name).toBe("graphspec");
    expect(run0.tool.driver.version).toBe(pkgVersion());
    const rules: { id: string; defaultConfiguration: { level: string } }[] = run0.tool.driver.rules;
    expect(rules.map((x) => x.id)).toEqual(Object.keys(CATALOG));
    for (const rule of rules)
      expect(["error", "warning", "note", "none"]).toContain(rule.defaultConfiguration.level);

    expect(run0.results).toHaveLength(2);
    for (const result of run0.results) {
      expect(rules[result.ruleIndex]?.id).toBe(result.ruleId);
      expect(["error", "warning", "note", "none"]).toContain(result.level);
      expect(typeof result.message.text).toBe("string");
      expect(result.locations).toHaveLength(1);
      const region = result.locations[0].physicalLocation.region;
      for (const key of ["startLine", "startColumn", "endLine", "endColumn"])
        expect(Number.isInteger(region[key]) && region[key] >= 1, key).toBe(true);
    }
    // Files are reported in the order given.
    const [bad, dup] = run0.results;
    expect(dup).toMatchObject({
      ruleId: "duplicate-key",
      level: "error",
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: "dup.yaml" },
            region: { startLine: 10, startColumn: 1, endLine: 10, endColumn: 5 },
          },
        },
      ],
    });
    expect(bad).toMatchObject({
      ruleId: "schema",
      message: { text: `"Minimal" is not a valid name (${NAME_HINT})` },
      locations: [
        {
          physicalLocation: {
            // A URI: the space is percent-encoded.
            artifactLocation: { uri: "my%20spec.yaml" },
            region: { startLine: 2, startColumn: 7, endLine: 2, endColumn: 14 },
          },
        },
      ],
    });
  });

  it("sarif: warnings are level warning, and a clean run has an empty results list", async () => {
    const dir = project({ "bad.yaml": BAD, "ok.yaml": VALID });
    const warn = await run(
      ["validate", "-f", "sarif", "--rule", "schema=warning", "bad.yaml"],
      dir,
    );
    expect(JSON.parse(warn.stdout).runs[0].results[0].level).toBe("warning");
    const clean = await run(["validate", "-f", "sarif", "ok.yaml"], dir);
    expect(clean.status).toBe(0);
    expect(JSON.parse(clean.stdout).runs[0].results).toEqual([]);
  });

  it("pretty: location, message, the source line and a caret under the whole span, no colour in a pipe", async () => {
    const r = await run(["validate", "bad.yaml"], project({ "bad.yaml": BAD }));
    expect(r.stdout).toBe(
      [
        'bad.yaml:2:7: error: "Minimal" is not a valid name [schema]',
        "  |",
        "2 | name: Minimal",
        `  |       ^^^^^^^ ${NAME_HINT}`,
        "",
      ].join("\n"),
    );
    expect(hasAnsi(r.stdout + r.stderr)).toBe(false);
  });

  it("pretty: a span over several lines is underlined to the end of its first line", async () => {
    // "missing `edges`" spans the whole document, from 1:1.
    const text = VALID.slice(0, VALID.indexOf("edges:"));
    const r = await run(["validate", "multi.yaml"], project({ "multi.yaml": text }));
    expect(r.stdout).toContain("1 | version: 1\n  | ^^^^^^^^^^ How control flows");
  });
});

const hasScript = spawnSync("script", ["--version"]).status === 0;

describe.concurrent("colour", () => {
  // `script` gives the CLI a real terminal, the one case where colour is wanted.
  const inTerminal = (dir: string, env: Record<string, string>) =>
    spawnSync("script", ["-qec", `${process.execPath} ${BIN} validate bad.yaml`, "/dev/null"], {
      cwd: dir,
      env: { ...withoutColorSettings(process.env), ...env },
      encoding: "utf8",
    }).stdout;

  it.runIf(hasScript)("is used on a terminal, and not when NO_COLOR is set", () => {
    const dir = project({ "bad.yaml": BAD });
    expect(hasAnsi(inTerminal(dir, {}))).toBe(true);
    const plain = inTerminal(dir, { NO_COLOR: "1" });
    expect(plain).toContain("2 | name: Minimal");
    expect(hasAnsi(plain)).toBe(false);
  });
});

describe.concurrent("severity options", () => {
  it("--rule NAME=warning turns errors into warnings; --max-warnings gates them", async () => {
    const dir = project({ "bad.yaml": BAD });
    const asWarning = await run(["validate", "--rule", "schema=warning", "bad.yaml"], dir);
    expect(asWarning.status).toBe(0);
    expect(asWarning.stdout).toMatch(/^bad\.yaml:2:7: warning: /);
    expect(asWarning.stderr).toBe("✖ 0 errors, 1 warning in 1 file\n");

    const gated = await run(
      ["validate", "--rule", "schema=warning", "--max-warnings", "0", "bad.yaml"],
      dir,
    );
    expect(gated.status).toBe(1);
    expect(gated.stderr).toContain("1 warning exceeds --max-warnings 0");
    const allowed = await run(
      ["validate", "--rule", "schema=warning", "--max-warnings", "1", "bad.yaml"],
      dir,
    );
    expect(allowed.status).toBe(0);
  });

  it("--rule NAME=off drops a rule; --rule repeats", async () => {
    // The last `name` wins, and is invalid too: a schema error on line 10 as well.
    const dir = project({ "bad.yaml": `${BAD}name: Again\n` });
    const both = await run(["validate", "-f", "json", "bad.yaml"], dir);
    expect((JSON.parse(both.stdout) as { rule: string }[]).map((d) => d.rule)).toEqual([
      "duplicate-key",
      "schema",
    ]);
    const off = await run(
      ["validate", "--rule", "schema=off", "--rule", "duplicate-key=off", "bad.yaml"],
      dir,
    );
    expect(off).toMatchObject({ status: 0, stdout: "", stderr: "✔ 1 file valid\n" });
    const error = await run(
      [
        "validate",
        "-f",
        "json",
        "--rule",
        "schema=off",
        "--rule",
        "duplicate-key=warning",
        "bad.yaml",
      ],
      dir,
    );
    expect(JSON.parse(error.stdout)).toMatchObject([
      { rule: "duplicate-key", severity: "warning" },
    ]);
  });

  it("--quiet prints errors only, but --max-warnings still counts the hidden warnings", async () => {
    // A duplicate-key error and the schema finding, made a warning, both on line 10.
    const dir = project({ "bad.yaml": `${BAD}name: Again\n` });
    const quiet = await run(
      ["validate", "-q", "-f", "json", "--rule", "schema=warning", "bad.yaml"],
      dir,
    );
    expect(quiet.status).toBe(1);
    expect(JSON.parse(quiet.stdout)).toMatchObject([{ rule: "duplicate-key", severity: "error" }]);

    const warnOnly = project({ "bad.yaml": BAD });
    const gate = [
      "validate",
      "--quiet",
      "--rule",
      "schema=warning",
      "--max-warnings",
      "0",
      "bad.yaml",
    ];
    const gated = await run(gate, warnOnly);
    expect(gated.status).toBe(1);
    expect(gated.stdout).toBe("");
    expect(gated.stderr).toContain("1 warning exceeds --max-warnings 0");
  });
});

describe.concurrent("suppression comments", () => {
  const status = async (text: string) =>
    (await run(["validate", "s.yaml"], project({ "s.yaml": text }))).status;

  it("graphspec-disable-line RULE suppresses that rule on that line only", async () => {
    expect(
      await status(BAD.replace("name: Minimal", "name: Minimal # graphspec-disable-line schema")),
    ).toBe(0);
    expect(
      await status(
        BAD.replace("name: Minimal", "name: Minimal # graphspec-disable-line unknown-node"),
      ),
    ).toBe(1);
    expect(
      await status(BAD.replace("version: 1", "version: 1 # graphspec-disable-line schema")),
    ).toBe(1);
  });

  it("graphspec-disable-next-line RULE[, RULE] covers the next line", async () => {
    const text = BAD.replace(
      "name: Minimal",
      "# graphspec-disable-next-line duplicate-key, schema\nname: Minimal",
    );
    expect(await status(text)).toBe(0);
    const wrongLine = BAD.replace("version: 1", "# graphspec-disable-next-line schema\nversion: 1");
    expect(await status(wrongLine)).toBe(1);
  });

  it("graphspec-disable RULE covers the whole file; no rule names covers every rule", async () => {
    expect(await status(`# graphspec-disable schema\n${BAD}`)).toBe(0);
    expect(await status(`# graphspec-disable route-no-default\n${BAD}`)).toBe(1);
    expect(await status(`${BAD}# graphspec-disable\n`)).toBe(0);
    expect(
      await status(BAD.replace("name: Minimal", "name: Minimal # graphspec-disable-line")),
    ).toBe(0);
  });
});

describe.concurrent("other commands", () => {
  it("schema prints the spec JSON Schema", async () => {
    const r = await run(["schema"], project({}));
    expect(r.status).toBe(0);
    const printed = JSON.parse(r.stdout);
    expect(printed).toEqual(
      JSON.parse(readFileSync(join(ROOT, "schema/graph.schema.json"), "utf8")),
    );
  });

  it("--help and --version exit 0; no command prints help and exits 2", async () => {
    const dir = project({});
    const help = await run(["--help"], dir);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/Usage: graphspec <command>/);
    expect(help.stdout).toMatch(/validate/);
    expect(help.stdout).toMatch(/schema/);
    const validateHelp = await run(["validate", "--help"], dir);
    expect(validateHelp.status).toBe(0);
    expect(validateHelp.stdout).toMatch(/--max-warnings/);
    const version = await run(["--version"], dir);
    expect(version).toMatchObject({ status: 0, stdout: `${pkgVersion()}\n` });
    const none = await run([], dir);
    expect(none.status).toBe(2);
    expect(none.stdout).toMatch(/Usage: graphspec/);
  });
});

function pkgVersion(): string {
  return JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;
}
