/**
 * What `graphspec validate` prints on a pull request must be safe to print: no content of a file
 * outside the project (a symbolic link to `~/.docker/config.json`), no content of a file that is not
 * a spec (`.git/config`, a credentials file), and no control character from the spec that a terminal
 * or GitHub Actions would act on (`\e]…`, `\r\n::add-mask::…`). See docs/security.md.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readSpec, validate } from "../../src/index.js";
import { SPEC_KEYS } from "../../src/spec/not-a-spec.js";
import { brokenSpec, FORMATS, project, ROOT, tempDir, validateCli } from "./validate-project.js";

const TOKEN = "ghp_outsideTOKEN0123456789";

/** What a symbolic link may point at: a docker config with an auth token, in a directory of its own. */
function outsideSecrets(): string {
  const dir = tempDir("graphspec-outside-");
  writeFileSync(
    join(dir, "config.json"),
    JSON.stringify({ auths: { "ghcr.io": { auth: TOKEN } }, version: 1, name: TOKEN }),
  );
  writeFileSync(join(dir, "secrets.yaml"), `version: 1\nname: ${TOKEN}\nnodes: ${TOKEN}\n`);
  // A marker, so the directory looks like a project of its own when reached through a link.
  writeFileSync(join(dir, "package.json"), "{}\n");
  return dir;
}

const allOutput = (dir: string, args: string[]) =>
  FORMATS.map((format) => {
    const r = validateCli(dir, [...args, "-f", format]);
    return { format, ...r, text: r.stdout + r.stderr };
  });

describe("spec files that lead out of the project are refused, never read", () => {
  it("a symbolic link to a file outside, named on the command line", () => {
    const outside = outsideSecrets();
    const dir = project({ "graphs/ok.yaml": brokenSpec("nowhere") });
    symlinkSync(join(outside, "config.json"), join(dir, "graphs", "evil.json"));
    for (const r of allOutput(dir, ["graphs/evil.json"])) {
      expect(r.status, r.format).toBe(1);
      expect(r.text, r.format).toContain("path-escape");
      expect(r.text, r.format).not.toContain(TOKEN);
    }
  });

  it("the same link found by expanding a directory or a glob", () => {
    const outside = outsideSecrets();
    const dir = project({ "graphs/ok.yaml": brokenSpec("nowhere") });
    symlinkSync(join(outside, "secrets.yaml"), join(dir, "graphs", "evil.yaml"));
    for (const args of [["graphs/"], ["graphs/*.yaml"], ["."]]) {
      for (const r of allOutput(dir, args)) {
        const where = `${args} ${r.format}`;
        expect(r.status, where).toBe(1);
        expect(r.text, where).toContain("path-escape");
        // The other spec is still checked.
        expect(r.text, where).toContain("unknown node `nowhere`");
        expect(r.text, where).not.toContain(TOKEN);
      }
    }
  });

  it("a symbolic link to a directory outside (which has a package.json of its own) is not searched", () => {
    const outside = outsideSecrets();
    const dir = project({ "graphs/ok.yaml": brokenSpec("nowhere") });
    symlinkSync(outside, join(dir, "graphs", "linked"));
    for (const args of [
      ["graphs/"],
      ["graphs/**/*.yaml"],
      ["graphs/linked"],
      ["graphs/linked/secrets.yaml"],
    ]) {
      for (const r of allOutput(dir, args)) {
        const where = `${args} ${r.format}`;
        expect(r.status, where).toBe(1);
        expect(r.text, where).toContain("path-escape");
        expect(r.text, where).not.toContain(TOKEN);
      }
    }
    const pretty = validateCli(dir, ["graphs/"]);
    expect(pretty.stdout).toContain(
      "graphs/linked:1:1: error: this directory is a symbolic link to a directory outside the project root; it was not searched [path-escape]",
    );
  });

  it("validate() on a spec read through such a link: path-escape, and the document holds no text", async () => {
    const outside = outsideSecrets();
    const dir = project({});
    symlinkSync(join(outside, "secrets.yaml"), join(dir, "evil.yaml"));
    const doc = await readSpec(join(dir, "evil.yaml"));
    expect(doc.text).toBe("");
    const found = await validate(doc);
    expect(found.map((d) => [d.rule, d.message])).toEqual([
      [
        "path-escape",
        `${join(dir, "evil.yaml")} is a symbolic link to a file outside the project root; it was not read`,
      ],
    ]);
  });

  it("a link that stays inside the project is followed, and its file checked once", () => {
    const dir = project({ "graphs/real.yaml": brokenSpec("nowhere") });
    symlinkSync(join(dir, "graphs", "real.yaml"), join(dir, "graphs", "alias.yaml"));
    const r = validateCli(dir, ["graphs/", "-f", "json"]);
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).map((d: { message: string }) => d.message)).toEqual([
      "unknown node `nowhere`",
    ]);
  });
});

describe("a file that is not a spec gets one finding and is never quoted", () => {
  const GIT_CONFIG = `[core]
\trepositoryformatversion = 0
[http "https://github.com/"]
\textraheader = AUTHORIZATION: basic ${TOKEN}
`;
  const CREDENTIALS = JSON.stringify({ type: "service_account", private_key: TOKEN }, null, 2);

  for (const [name, text] of [
    ["git-config.yaml", GIT_CONFIG],
    ["credentials.json", CREDENTIALS],
    ["npmrc.yaml", `//registry.npmjs.org/:_authToken=${TOKEN}\n`],
    ["list.yaml", `- ${TOKEN}\n- again\n`],
    ["mapping.yaml", `auths:\n  ghcr.io: { auth: ${TOKEN} }\n`],
  ] as const) {
    it(`${name}: one not-a-spec finding, and nothing of its content in any format`, () => {
      const dir = project({ [name]: text });
      for (const r of allOutput(dir, [name])) {
        expect(r.status, r.format).toBe(1);
        expect(r.text, r.format).toContain("not-a-spec");
        expect(r.text, r.format).not.toContain(TOKEN);
        expect(r.text, r.format).not.toContain("extraheader");
      }
      const json = JSON.parse(validateCli(dir, [name, "-f", "json"]).stdout) as { rule: string }[];
      expect(json.map((d) => d.rule)).toEqual(["not-a-spec"]);
    });
  }

  it("a spec with a syntax error is still a spec: its line is quoted as before", () => {
    const dir = project({ "spec.yaml": "version: 1\nname: *missing\n" });
    const r = validateCli(dir, ["spec.yaml"]);
    expect(r.stdout).toContain("yaml-syntax");
    expect(r.stdout).toContain("2 | name: *missing");
  });

  it("SPEC_KEYS are the schema's top-level properties", () => {
    const schema = JSON.parse(readFileSync(join(ROOT, "schema", "graph.schema.json"), "utf8"));
    expect([...SPEC_KEYS].sort()).toEqual(Object.keys(schema.properties).sort());
  });
});

describe("control characters from the spec are escaped in every format", () => {
  // Keys as a pull request can write them: a terminal title escape, a line break followed by
  // GitHub workflow commands, a bell, a C1 control and a right-to-left override.
  const EVIL =
    "evil\u001b]0;pwned\u0007\r\n::warning file=x::forged\n::add-mask::hidden\u009b31m\u202e";
  const spec = brokenSpec(JSON.stringify(EVIL));
  /** Any control character but the line feeds that separate the output's own lines. */
  const RAW_CONTROL =
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
    /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

  it("in messages and the quoted source line", () => {
    const dir = project({ "graphs/spec.yaml": spec });
    for (const r of allOutput(dir, ["graphs/"])) {
      expect(r.status, r.format).toBe(1);
      expect(r.text, r.format).toContain("unknown node");
      expect(RAW_CONTROL.test(r.text), `${r.format}: ${JSON.stringify(r.text)}`).toBe(false);
      // No line of the output is a command the spec wrote.
      for (const line of r.stdout.split("\n")) {
        expect(line, r.format).not.toMatch(/^::(warning file=x|add-mask)/);
      }
    }
    const pretty = validateCli(dir, ["graphs/"]).stdout;
    expect(pretty).toContain("unknown node `evil\\e]0;pwned\\x07\\r\\n::warning file=x::forged\\n");
  });

  it("github: one workflow command per diagnostic, with GitHub's own escapes", () => {
    const dir = project({ "graphs/spec.yaml": spec });
    const lines = validateCli(dir, ["graphs/", "-f", "github"]).stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^::error file=graphs\/spec\.yaml,line=9,/);
    expect(lines[0]).toContain(
      "evil\\e]0;pwned\\x07%0D%0A::warning file=x::forged%0A::add-mask::hidden\\x9b31m\\u{202e}",
    );
  });

  it("json and sarif: the same value, every control character escaped", () => {
    const dir = project({ "graphs/spec.yaml": spec });
    const json = validateCli(dir, ["graphs/", "-f", "json"]).stdout;
    expect(JSON.parse(json)[0].message).toBe(`unknown node \`${EVIL}\``);
    const sarif = validateCli(dir, ["graphs/", "-f", "sarif"]).stdout;
    expect(JSON.parse(sarif).runs[0].results[0].message.text).toBe(
      `unknown node \`${EVIL}\` (expected \`a\` or \`END\`)`,
    );
  });

  it("file names holding `,` `%` `:` and a line break", () => {
    const name = "a,b%c:d\ne::add-mask::x.yaml";
    const dir = project({});
    mkdirSync(join(dir, "graphs"));
    writeFileSync(join(dir, "graphs", name), brokenSpec("nowhere"));
    for (const r of allOutput(dir, ["graphs/"])) {
      expect(r.status, r.format).toBe(1);
      expect(RAW_CONTROL.test(r.text), r.format).toBe(false);
      for (const line of r.stdout.split("\n"))
        expect(line, r.format).not.toMatch(/^(e)?::add-mask/);
    }
    const github = validateCli(dir, ["graphs/", "-f", "github"]).stdout.trim();
    expect(github.split("\n")).toHaveLength(1);
    expect(github).toContain("file=graphs/a%2Cb%25c%3Ad%0Ae%3A%3Aadd-mask%3A%3Ax.yaml,line=9,");
    expect(validateCli(dir, ["graphs/"]).stdout).toContain(
      "graphs/a,b%c:d\\ne::add-mask::x.yaml:9:",
    );
    const sarif = JSON.parse(validateCli(dir, ["graphs/", "-f", "sarif"]).stdout);
    expect(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe(
      "graphs/a%2Cb%25c%3Ad%0Ae%3A%3Aadd-mask%3A%3Ax.yaml",
    );
  });
});
