/**
 * Files a spec names stay inside the project root (docs/security.md): modules, subgraph specs,
 * prompt files and the spec itself — by `..`, by absolute paths, through symbolic links (to a
 * file, to a folder, in the middle of a path, to files that do not exist yet), and by names that
 * only look like a way out. Through the package entry (`readSpec`, `validate`), in this process:
 * the quick companion of the CLI's tests (test/security/validate.test.ts), where a mutation
 * test's mutants live (docs/testing.md#mutation-testing).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Diagnostic, readSpec, validate } from "graphspec";
import { afterAll, describe, expect, it } from "vitest";
// Unit test of the reasons no public path reaches here (root reads every file).
import { ioReason } from "../../src/spec/inside-root.js";

const tmp = mkdtempSync(join(tmpdir(), "graphspec-paths-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const TOOL = "export default async () => ({ n: 1 });\n";

/** Writes `files` under a new folder of tmp (a `null` content makes a folder) and gives its path. */
function folder(name: string, files: Record<string, string | null>): string {
  const dir = join(tmp, name);
  for (const [path, content] of Object.entries(files)) {
    const at = join(dir, path);
    if (content === null) mkdirSync(at, { recursive: true });
    else {
      mkdirSync(join(at, ".."), { recursive: true });
      writeFileSync(at, content);
    }
  }
  return dir;
}

/** A spec whose one function node runs `module`. */
const specWith = (module: string) => `version: 1
name: p
state:
  n: { type: integer }
nodes:
  run: { kind: function, module: ${JSON.stringify(module)} }
edges:
  - { from: START, to: run }
  - { from: run, to: END }
`;

const shown = (ds: Diagnostic[]) =>
  ds.map((d) => `${d.rule}: ${d.message}${d.hint ? ` (hint: ${d.hint})` : ""}`);

/** What validate finds in `spec` (written at `at`, the spec's path) about its files. */
async function findings(at: string, module: string, root?: string): Promise<string[]> {
  mkdirSync(join(at, ".."), { recursive: true });
  writeFileSync(at, specWith(module));
  return shown(await validate(await readSpec(at, root === undefined ? {} : { root })));
}

// The outside world: a folder beside the project with a module and a spec in it.
const outside = folder("outside", {
  "tools.ts": TOOL,
  "secret.yaml": specWith("./tools.ts"),
  "sub/tools.ts": TOOL,
});
// The project: a marker, modules inside, and links of every kind.
const project = folder("project", {
  "package.json": "{}",
  "tools.ts": TOOL,
  "..tools.ts": TOOL,
  "Upper.TS": TOOL,
  "notes.md": "not a module",
  "lib/inner.ts": TOOL,
  // Made in this order: the hint picks by name, not by the order the folder lists them.
  "twins/same.ts": TOOL,
  "twins/same.js": TOOL,
  "twins/same.cjs": TOOL,
  "graphs/.keep": "",
});
symlinkSync(join(outside, "tools.ts"), join(project, "linked-tools.ts"));
symlinkSync(outside, join(project, "linked-out"));
symlinkSync(join(project, "lib"), join(project, "linked-lib"));
symlinkSync(join(project, "tools.ts"), join(project, "graphs", "inner-link.ts"));
const spec = join(project, "graphs", "spec.yaml");

const OUTSIDE_HINT =
  "the project root is the nearest folder up from the spec with a package.json, .git or graphspec.config.json: move the file into it and refer to it by a path relative to the spec file";
const LINK_HINT = "copy the file into the project instead of linking to it";

describe("a module a spec names stays inside the project root", () => {
  it.each([
    ["by `..`", "../../outside/tools.ts"],
    ["by an absolute path", join(outside, "tools.ts")],
    ["by `..` to a file that does not exist", "../../outside/missing.ts"],
    ["by a path that climbs out and back in by another name", "../../outside/../outside/tools.ts"],
  ])("%s: path-escape, naming the root", async (_, module) => {
    expect(await findings(spec, module)).toEqual([
      `path-escape: module \`${module}\` is outside the project root \`../\` (hint: ${OUTSIDE_HINT})`,
    ]);
  });

  it("a path without ./ at the root's level: the hint says paths are relative to the spec", async () => {
    const atRoot = join(project, "at-root.yaml");
    expect(await findings(atRoot, "lib/nothing.ts")).toEqual([
      "unknown-module: module `lib/nothing.ts` does not exist (hint: paths are relative to the spec file (`./tools.ts`); to use a package's export, re-export it from a module of yours)",
    ]);
  });

  it("path-escape still reports beside a broken section it does not read, and can be turned off", async () => {
    const at = join(project, "graphs", "broken.yaml");
    writeFileSync(
      at,
      `${specWith("../../outside/tools.ts")}modls:\n  default: { model: "scripted:m" }\n`,
    );
    const doc = await readSpec(at);
    const rules = (await validate(doc)).map((d) => d.rule);
    expect(rules).toContain("schema");
    expect(rules).toContain("path-escape");
    const off = await validate(doc, { severity: { "path-escape": "off" } });
    expect(off.map((d) => d.rule)).not.toContain("path-escape");
  });

  it("the root's own parent, `..` from the root: outside", async () => {
    const atRoot = join(project, "at-root.yaml");
    expect(await findings(atRoot, "..")).toEqual([
      `path-escape: module \`..\` is outside the project root \`./\` (hint: ${OUTSIDE_HINT})`,
    ]);
  });

  it.each([
    ["a link to a file outside", "../linked-tools.ts"],
    ["a linked folder in the middle of the path", "../linked-out/tools.ts"],
    ["a linked folder, two levels down", "../linked-out/sub/tools.ts"],
    ["a linked folder, to a file that does not exist yet", "../linked-out/later.ts"],
    ["a linked folder, to a folder that does not exist yet", "../linked-out/new/later.ts"],
  ])("through %s: path-escape, the link named", async (_, module) => {
    expect(await findings(spec, module)).toEqual([
      `path-escape: module \`${module}\` leads through a symbolic link to a file outside the project root (hint: ${LINK_HINT})`,
    ]);
  });

  it.each([
    ["a file inside", "../tools.ts"],
    ["a name that starts with `..`", "../..tools.ts"],
    ["an absolute path inside", join(project, "tools.ts")],
    ["a link to a folder inside", "../linked-lib/inner.ts"],
    ["a link to a file inside", "./inner-link.ts"],
    ["an upper-case extension", "../Upper.TS"],
    ["a path through a folder and back", "../lib/../tools.ts"],
  ])("%s: no finding", async (_, module) => {
    expect(await findings(spec, module)).toEqual([]);
  });

  it.each([
    [
      "a missing file inside, its name near another's",
      "../tool.ts",
      "unknown-module: module `../tool.ts` does not exist (hint: did you mean `../tools.ts`?)",
    ],
    [
      "a missing file inside, another extension of the same name",
      "../tools.js",
      "unknown-module: module `../tools.js` does not exist (hint: did you mean `../tools.ts`?)",
    ],
    [
      "a missing file in a missing folder",
      "../nowhere/tools.ts",
      "unknown-module: module `../nowhere/tools.ts` does not exist (hint: there is no directory `../nowhere`)",
    ],
    [
      "a bare name, as for a package",
      "zod",
      "unknown-module: module `zod` does not exist (hint: paths are relative to the spec file (`./tools.ts`); to use a package's export, re-export it from a module of yours)",
    ],
    [
      "a missing file whose name is another kind of file's",
      "../notes.ts",
      "unknown-module: module `../notes.ts` does not exist",
    ],
    [
      "a missing file of the same name as a module, far from it as text",
      "../lib/inner.coffee",
      "unknown-module: module `../lib/inner.coffee` does not exist (hint: did you mean `../lib/inner.ts`?)",
    ],
    [
      "a missing file of a name two modules have, the first in order",
      "../twins/same.mjs",
      "unknown-module: module `../twins/same.mjs` does not exist (hint: did you mean `../twins/same.cjs`?)",
    ],
    [
      "a folder",
      "../lib",
      "unknown-module: module `../lib` is a directory (hint: name a file in it)",
    ],
    [
      "a folder, with a trailing slash",
      "../lib/",
      "unknown-module: module `../lib/` is a directory (hint: name a file in it)",
    ],
    [
      "a file that is no module",
      "../notes.md",
      "unknown-module: module `../notes.md` is not a JavaScript or TypeScript module (hint: use a .ts, .mts, .cts, .js, .mjs or .cjs file)",
    ],
  ])("%s, inside: unknown-module, not path-escape", async (_, module, finding) => {
    expect(await findings(spec, module)).toEqual([finding]);
  });
});

describe("a project opened through a symbolic link", () => {
  const via = join(tmp, "via-link");
  symlinkSync(project, via);
  const linkedSpec = join(via, "graphs", "spec.yaml");

  it("its modules are inside, by a relative path, by the link's path or by the real path", async () => {
    expect(await findings(linkedSpec, "../tools.ts")).toEqual([]);
    expect(await findings(linkedSpec, join(via, "tools.ts"))).toEqual([]);
    expect(await findings(linkedSpec, join(project, "tools.ts"))).toEqual([]);
  });

  it("a module outside is still outside, and a link out still a link out", async () => {
    expect(await findings(linkedSpec, join(outside, "tools.ts"))).toEqual([
      `path-escape: module \`${join(outside, "tools.ts")}\` is outside the project root \`../\` (hint: ${OUTSIDE_HINT})`,
    ]);
    expect(await findings(linkedSpec, "../linked-out/tools.ts")).toEqual([
      `path-escape: module \`../linked-out/tools.ts\` leads through a symbolic link to a file outside the project root (hint: ${LINK_HINT})`,
    ]);
  });
});

describe("the project root is the nearest folder up with a marker", () => {
  it.each(["package.json", ".git", "graphspec.config.json"])(
    "%s marks it: a module beside the marker is inside, one above it outside",
    async (marker) => {
      const dir = folder(`marked-${marker}`, {
        [marker]: marker === ".git" ? null : "{}",
        "tools.ts": TOOL,
      });
      const at = join(dir, "graphs", "deep", "spec.yaml");
      expect(await findings(at, "../../tools.ts")).toEqual([]);
      expect(await findings(at, "../../../outside/tools.ts")).toEqual([
        `path-escape: module \`../../../outside/tools.ts\` is outside the project root \`../../\` (hint: ${OUTSIDE_HINT})`,
      ]);
    },
  );

  it("with no marker above the spec, its own folder is the root: the hint names the folder that holds both", async () => {
    const bare = folder("bare", { "tools.ts": TOOL });
    const at = join(bare, "graphs", "spec.yaml");
    // tmp has no marker either (it is in the OS temp dir).
    expect(await findings(at, "../tools.ts")).toEqual([
      "path-escape: module `../tools.ts` is outside the project root `./` (the spec's own folder) (hint: the project root is the nearest folder up from the spec with a package.json, .git or graphspec.config.json, and none was found above the spec: add a graphspec.config.json (`{}`) to the folder that holds both, `../` from the spec (or move the file into the spec's folder))",
    ]);
  });
});

describe("the spec itself is read only from inside the root", () => {
  const read = async (path: string, root: string) =>
    shown((await readSpec(path, { root })).problems);

  it("a spec outside the root given is not read", async () => {
    expect(await read(join(outside, "secret.yaml"), project)).toEqual([
      `path-escape: ${join(outside, "secret.yaml")} is outside the project root; it was not read (hint: validate specs inside the project; copy a spec into it rather than linking to one elsewhere)`,
    ]);
  });

  it("a link to a spec outside, or a spec in a linked folder leading out, is not read", async () => {
    symlinkSync(join(outside, "secret.yaml"), join(project, "graphs", "linked.yaml"));
    for (const path of [
      join(project, "graphs", "linked.yaml"),
      join(project, "linked-out", "secret.yaml"),
    ]) {
      expect(await read(path, project)).toEqual([
        `path-escape: ${path} is a symbolic link to a file outside the project root; it was not read (hint: validate specs inside the project; copy a spec into it rather than linking to one elsewhere)`,
      ]);
    }
  });

  it("a spec inside, by a link or a linked folder inside, is read", async () => {
    writeFileSync(join(project, "lib", "inner.yaml"), specWith("../tools.ts"));
    symlinkSync(join(project, "lib", "inner.yaml"), join(project, "graphs", "inner.yaml"));
    for (const path of [
      join(project, "graphs", "inner.yaml"),
      join(project, "linked-lib", "inner.yaml"),
    ]) {
      const doc = await readSpec(path, { root: project });
      expect(shown(doc.problems)).toEqual([]);
      expect(doc.data).toMatchObject({ name: "p" });
    }
  });

  it("a spec that cannot be read: io, naming why, not path-escape", async () => {
    symlinkSync(join(project, "graphs", "loop-b.yaml"), join(project, "graphs", "loop-a.yaml"));
    symlinkSync(join(project, "graphs", "loop-a.yaml"), join(project, "graphs", "loop-b.yaml"));
    const cases: [string, string][] = [
      [join(project, "graphs", "none.yaml"), "no such file (ENOENT)"],
      [join(project, "tools.ts", "spec.yaml"), "a part of the path is not a directory (ENOTDIR)"],
      [join(project, "graphs", "loop-a.yaml"), "too many symbolic links (ELOOP)"],
      [join(project, `${"x".repeat(300)}.yaml`), "error (ENAMETOOLONG)"],
    ];
    for (const [path, why] of cases) {
      expect(await read(path, project)).toEqual([`io: cannot read ${path}: ${why}`]);
    }
  });

  it("why a file cannot be read, for the errors the tests cannot cause as root", () => {
    const coded = (code: string) => Object.assign(new Error("x"), { code });
    expect(ioReason(coded("EACCES"))).toBe("permission denied (EACCES)");
    expect(ioReason(coded("EPERM"))).toBe("permission denied (EPERM)");
    expect(ioReason(new Error("the disk is gone"))).toBe("the disk is gone");
    expect(ioReason("a string thrown")).toBe("a string thrown");
    expect(ioReason(undefined)).toBe("undefined");
    expect(ioReason(null)).toBe("null");
  });
});

describe("prompt files, subgraph specs and MCP folders stay inside too", () => {
  const promptSpec = (file: string) => `version: 1
name: p
state:
  messages: { type: messages }
models:
  default: { model: "scripted:p" }
nodes:
  ask:
    kind: llm
    system: { file: ${JSON.stringify(file)} }
edges:
  - { from: START, to: ask }
  - { from: ask, to: END }
`;
  writeFileSync(join(outside, "secret.md"), "TOKEN=abc\n");
  writeFileSync(join(project, "lib", "prompt.md"), "Help.\n");
  symlinkSync(join(outside, "secret.md"), join(project, "lib", "linked.md"));

  const promptFindings = async (file: string) => {
    const at = join(project, "graphs", "prompted.yaml");
    writeFileSync(at, promptSpec(file));
    const found = shown(await validate(await readSpec(at)));
    // Whatever is reported, the file's text is not.
    expect(JSON.stringify(found)).not.toContain("TOKEN");
    return found;
  };
  const PROMPT_HINT =
    "keep prompt files inside the project, e.g. in a `prompts/` folder beside the spec";

  it.each([
    ["by `..`", "../../outside/secret.md", "is outside the project root"],
    ["by an absolute path", join(outside, "secret.md"), "is outside the project root"],
    [
      "through a link to a file",
      "../lib/linked.md",
      "is a symbolic link to a file outside the project root",
    ],
    [
      "through a linked folder",
      "../linked-out/secret.md",
      "is a symbolic link to a file outside the project root",
    ],
  ])("a prompt file %s: path-escape, not read", async (_, file, why) => {
    expect(await promptFindings(file)).toEqual([
      `path-escape: prompt file \`${file}\` ${why}; it was not read (hint: ${PROMPT_HINT})`,
    ]);
  });

  it("a prompt file inside, through a linked folder inside: read", async () => {
    expect(await promptFindings("../linked-lib/prompt.md")).toEqual([]);
  });

  const subgraphSpec = (graph: string) => `version: 1
name: parent
state:
  n: { type: integer }
nodes:
  child: { kind: subgraph, graph: ${JSON.stringify(graph)} }
edges:
  - { from: START, to: child }
  - { from: child, to: END }
`;
  it("an MCP server's folder: inside is fine, outside (lexically, even if missing) is path-escape", async () => {
    const at = join(project, "graphs", "mcp.yaml");
    writeFileSync(
      at,
      `version: 1
name: m
state:
  out: { type: string }
mcp_servers:
  inside: { command: node, args: [s.mjs], cwd: ../lib, tools: [a] }
  here: { command: node, args: [s.mjs], tools: [b] }
  out: { command: node, args: [s.mjs], cwd: ../../outside/nowhere, tools: [c] }
nodes:
  call: { kind: tool, tool: a, args: {}, write: { out: "\${{ string(result) }}" } }
edges:
  - { from: START, to: call }
  - { from: call, to: END }
`,
    );
    const found = shown(await validate(await readSpec(at)));
    expect(found.filter((f) => f.startsWith("path-escape"))).toEqual([
      "path-escape: MCP server `out` starts in `../../outside/nowhere`, outside the project root (hint: give a folder inside the project, relative to the spec file)",
    ]);
  });

  it.each([
    [
      "../../outside/secret.yaml",
      `path-escape: graph \`../../outside/secret.yaml\` is outside the project root \`../\` (hint: ${OUTSIDE_HINT})`,
    ],
    [
      "../linked-out/secret.yaml",
      `path-escape: graph \`../linked-out/secret.yaml\` leads through a symbolic link to a file outside the project root (hint: ${LINK_HINT})`,
    ],
    ["zzz-missing.yaml", "unknown-module: graph `zzz-missing.yaml` does not exist"],
    [
      "../tools.ts",
      "unknown-module: graph `../tools.ts` is not a spec file (hint: use a .yaml, .yml or .json file)",
    ],
  ])("a subgraph's spec %s", async (graph, finding) => {
    const at = join(project, "graphs", "parent.yaml");
    writeFileSync(at, subgraphSpec(graph));
    const found = shown(await validate(await readSpec(at)));
    expect(found.filter((f) => /^(path-escape|unknown-module)/.test(f))).toEqual([finding]);
  });
});
