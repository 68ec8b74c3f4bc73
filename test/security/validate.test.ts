/**
 * `graphspec validate` on a pull request: it must run nothing of the repository unless asked
 * (`--load-modules`), and what a module does when it is loaded — exit, hang, crash, print, read the
 * environment — must not decide the validator's output or exit code. Modules' exports are found by
 * parsing; these tests also pin down what that parsing knows. See docs/security.md.
 */
import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Diagnostic, readSpec, validate } from "../../src/index.js";
import { brokenSpec, FORMATS, project, SECRET, toolSpec, validateCli } from "./validate-project.js";

/** A tool module that, when imported, writes a marker, records the CI secret and spawns a process. */
const HOSTILE_TOOL = `import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
const here = (name) => new URL(name, import.meta.url);
writeFileSync(here("./imported.txt"), String(process.env.GRAPHSPEC_TEST_SECRET));
spawnSync(process.execPath, ["-e", "require('fs').writeFileSync(process.argv[1], 'spawned')", new URL("./spawned.txt", import.meta.url).pathname]);
export function ping() { return "pong"; }
`;

const summary = (ds: Diagnostic[]) => ds.map((d) => `${d.rule}: ${d.message}`);

describe("by default, validate runs nothing of the project", () => {
  it("a tool module's code does not run: no marker, no secret read, no process spawned (CLI, every format)", () => {
    const dir = project({
      "tools/ping.mjs": HOSTILE_TOOL,
      "graphs/uses.yaml": toolSpec("../tools/ping.mjs"),
    });
    for (const format of FORMATS) {
      const r = validateCli(dir, ["graphs/", "-f", format]);
      expect(r.status, `${format}: ${r.stdout}${r.stderr}`).toBe(0);
    }
    expect(existsSync(join(dir, "tools", "imported.txt"))).toBe(false);
    expect(existsSync(join(dir, "tools", "spawned.txt"))).toBe(false);
  });

  it("nor through validate() from the package entry", async () => {
    const dir = project({
      "tools/ping.mjs": HOSTILE_TOOL,
      "uses.yaml": toolSpec("./tools/ping.mjs"),
    });
    expect(await validate(await readSpec(join(dir, "uses.yaml")))).toEqual([]);
    expect(existsSync(join(dir, "tools", "imported.txt"))).toBe(false);
    expect(existsSync(join(dir, "tools", "spawned.txt"))).toBe(false);
  });

  it("the same module does run with --load-modules (so the checks above could fail)", () => {
    const dir = project({
      "tools/ping.mjs": HOSTILE_TOOL,
      "graphs/uses.yaml": toolSpec("../tools/ping.mjs"),
    });
    const r = validateCli(dir, ["graphs/", "--load-modules"]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(existsSync(join(dir, "tools", "imported.txt"))).toBe(true);
    // It ran without the validator's environment: the secret was not there to read.
    expect(readFileSync(join(dir, "tools", "imported.txt"), "utf8")).toBe("undefined");
  });
});

describe("a module that ends the process when it is imported", () => {
  const files = {
    "tools/exits.mjs": "process.exit(0);\nexport function ping() {}\n",
    "graphs/a-uses-exit.yaml": toolSpec("../tools/exits.mjs", "uses-exit"),
    "graphs/b-broken.yaml": brokenSpec("nowhere"),
    "graphs/c-broken.yaml": brokenSpec("elsewhere"),
  };

  for (const load of [false, true]) {
    for (const format of FORMATS) {
      it(`${load ? "--load-modules" : "default"}, ${format}: exit 1 with every error printed`, () => {
        const dir = project(files);
        const r = validateCli(dir, ["graphs/", "-f", format, ...(load ? ["--load-modules"] : [])]);
        expect(r.status, r.stdout + r.stderr).toBe(1);
        expect(r.stdout).toContain("unknown node `nowhere`");
        expect(r.stdout).toContain("unknown node `elsewhere`");
        if (load)
          expect(r.stdout).toContain(
            "module `../tools/exits.mjs` exited with code 0 before answering",
          );
        else expect(r.stdout).not.toContain("exits.mjs");
      });
    }
  }
});

describe("a module that never finishes loading", () => {
  const files = {
    "tools/hangs.mjs":
      "setInterval(() => {}, 1000);\nawait new Promise(() => {});\nexport function ping() {}\n",
    "graphs/uses.yaml": toolSpec("../tools/hangs.mjs"),
  };

  it("default: it is not loaded at all, and validate finishes", () => {
    const r = validateCli(project(files), ["graphs/"]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });

  it("--load-modules: it is stopped at the limit and reported, and validate finishes", () => {
    const r = validateCli(project(files), ["graphs/", "--load-modules", "--load-timeout", "1s"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      "module `../tools/hangs.mjs` did not finish loading within 1 s [unknown-module]",
    );
    expect(r.stdout).toContain("--load-timeout");
  });

  it("validate() with loadModules: { timeout } says the same", async () => {
    const dir = project({ ...files, "uses.yaml": toolSpec("./tools/hangs.mjs") });
    const found = await validate(await readSpec(join(dir, "uses.yaml")), {
      loadModules: { timeout: 500 },
    });
    expect(summary(found)).toEqual([
      "unknown-module: module `./tools/hangs.mjs` did not finish loading within 0.5 s",
    ]);
  });
});

describe("--load-modules: the loading process has none of the validator's environment", () => {
  /** Where PID namespaces are refused, graphspec marks its loader with a random token of its own (docs/security.md). */
  const withoutToken = (env: Record<string, string>) => {
    const { GRAPHSPEC_LOAD_TOKEN: token, ...rest } = env;
    if (token !== undefined) expect(token).toMatch(/^[0-9a-f]{32}$/);
    return rest;
  };

  const RECORDS_ENV = `import { writeFileSync } from "node:fs";
writeFileSync(new URL("./env.json", import.meta.url), JSON.stringify(process.env));
export function ping() { return "pong"; }
`;

  it("only PATH, by default", () => {
    const dir = project({
      "tools/ping.mjs": RECORDS_ENV,
      "graphs/uses.yaml": toolSpec("../tools/ping.mjs"),
    });
    const r = validateCli(dir, ["graphs/", "--load-modules"], { OTHER_TOKEN: "other-secret" });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const recorded = readFileSync(join(dir, "tools", "env.json"), "utf8");
    expect(recorded).not.toContain(SECRET);
    expect(recorded).not.toContain("other-secret");
    expect(withoutToken(JSON.parse(recorded))).toEqual({ PATH: process.env.PATH });
  });

  it("and what --load-env names, nothing more", () => {
    const dir = project({
      "tools/ping.mjs": RECORDS_ENV,
      "graphs/uses.yaml": toolSpec("../tools/ping.mjs"),
    });
    const r = validateCli(dir, ["graphs/", "--load-modules", "--load-env", "OTHER_TOKEN"], {
      OTHER_TOKEN: "other-secret",
    });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const recorded = JSON.parse(readFileSync(join(dir, "tools", "env.json"), "utf8"));
    expect(withoutToken(recorded)).toEqual({ PATH: process.env.PATH, OTHER_TOKEN: "other-secret" });
  });
});

describe("--load-modules: what the loading process does stays out of the validator's output", () => {
  it("a module that prints megabytes and then exports its tool: the output is the validator's own", () => {
    const dir = project({
      "tools/loud.mjs": `process.stdout.write("::error::forged\\n".repeat(200000));
process.stderr.write("x".repeat(4 * 1024 * 1024));
console.log("${SECRET}");
export function ping() { return "pong"; }
`,
      "graphs/uses.yaml": toolSpec("../tools/loud.mjs"),
      "graphs/broken.yaml": brokenSpec("nowhere"),
    });
    const r = validateCli(dir, ["graphs/", "--load-modules", "-f", "json"]);
    expect(r.status).toBe(1);
    const found = JSON.parse(r.stdout) as Diagnostic[];
    expect(found.map((d) => d.message)).toEqual(["unknown node `nowhere`"]);
    expect(r.stderr).not.toContain("forged");
    expect(r.stderr).not.toContain(SECRET);
    expect(r.stderr.length).toBeLessThan(1000);
  });

  it("a module that crashes the process: reported with the signal", () => {
    const dir = project({
      "tools/crash.mjs": "process.kill(process.pid, 'SIGKILL');\nexport function ping() {}\n",
      "graphs/uses.yaml": toolSpec("../tools/crash.mjs"),
    });
    const r = validateCli(dir, ["graphs/", "--load-modules"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("module `../tools/crash.mjs` was ended by SIGKILL before answering");
  });

  it("a module whose import throws: the first line of its error, as before", () => {
    const dir = project({
      "tools/throws.mjs": 'throw new Error("MAILER_URL is not set");\n',
      "graphs/uses.yaml": toolSpec("../tools/throws.mjs"),
    });
    const r = validateCli(dir, ["graphs/", "--load-modules"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      "module `../tools/throws.mjs` failed to load: MAILER_URL is not set",
    );
  });
});

describe("exports found by parsing", () => {
  /** What validate (default: parsing) says about `module` used as a function node with `export: NAME`. */
  const exportsCheck = (files: Record<string, string>, module: string, names: string[]) =>
    exportsCheckIn(project(files), module, names);

  async function exportsCheckIn(dir: string, module: string, names: string[]) {
    const nodes = names
      .map((n, i) => `  n${i}: { kind: function, module: ${module}, export: ${JSON.stringify(n)} }`)
      .join("\n");
    const edges = names
      .map((_, i) => `  - { from: ${i ? `n${i - 1}` : "START"}, to: n${i} }`)
      .join("\n");
    const spec = `version: 1\nname: p\nstate:\n  n: { type: integer }\nnodes:\n${nodes}\nedges:\n${edges}\n  - { from: n${names.length - 1}, to: END }\n`;
    writeFileSync(join(dir, "spec.yaml"), spec);
    const found = await validate(await readSpec(join(dir, "spec.yaml")));
    return found.map((d) => `${d.rule}: ${d.message}${d.hint ? ` (${d.hint})` : ""}`);
  }

  it("export const, function, { a as b }, default and export * from a project file", async () => {
    const files = {
      "m.mjs": `export const a = () => 1;
export function b() {}
const internal = () => 3;
export { internal as renamed };
export default function () {}
export * from "./more.mjs";
`,
      "more.mjs": "export const fromStar = () => 1;\nexport default 5;\n",
    };
    expect(
      await exportsCheck(files, "./m.mjs", ["a", "b", "renamed", "default", "fromStar"]),
    ).toEqual([]);
    // `internal` was exported under another name.
    expect(await exportsCheck(files, "./m.mjs", ["internal"])).toEqual([
      "unknown-export: module `./m.mjs` has no export `internal` (it exports `a`, `b`, `fromStar` and `renamed`)",
    ]);
  });

  it("a missing export, with did-you-mean", async () => {
    expect(
      await exportsCheck({ "m.mjs": "export function lookupTicket() {}\n" }, "./m.mjs", [
        "lookupTickt",
      ]),
    ).toEqual([
      "unknown-export: module `./m.mjs` has no export `lookupTickt` (did you mean `lookupTicket`?)",
    ]);
  });

  it("TypeScript: types and interfaces are not exports; enums, satisfies and annotated values are", async () => {
    const files = {
      "m.ts": `import type { Other } from "./other.js";
export interface Shape { a: string }
export type Alias = { b: number };
export enum Level { Low, High }
export const config = { retries: 3 } satisfies Record<string, number>;
export function run<T extends object>(state: T, other?: Other): Partial<T> { return state; }
export * from "./other.js";
`,
      "other.ts": "export type Other = string;\nexport const fromOther = (s: unknown) => s;\n",
    };
    expect(await exportsCheck(files, "./m.ts", ["Level", "config", "run", "fromOther"])).toEqual(
      [],
    );
    expect(await exportsCheck(files, "./m.ts", ["Shape"])).toEqual([
      "unknown-export: module `./m.ts` has no export `Shape` (it exports `Level`, `config`, `fromOther` and `run`)",
    ]);
  });

  it("CommonJS: module.exports = { … } and exports.x, as Node.js offers them to import", async () => {
    const files = {
      "m.cjs":
        "function a() {}\nfunction b() {}\nmodule.exports = { a, b };\nexports.c = function () {};\n",
    };
    expect(await exportsCheck(files, "./m.cjs", ["a", "b", "c", "default"])).toEqual([]);
    expect(await exportsCheck(files, "./m.cjs", ["lookup"])).toEqual([
      "unknown-export: module `./m.cjs` has no export `lookup` (it exports `a`, `b` and `c`)",
    ]);
  });

  it("a computed module.exports cannot be known without running it: nothing is claimed", async () => {
    const files = {
      "m.cjs": "const build = () => ({ made: () => 1 });\nmodule.exports = build();\n",
    };
    expect(await exportsCheck(files, "./m.cjs", ["made", "anything"])).toEqual([]);
  });

  it("export * from a package or from outside the project is not followed: nothing is claimed", async () => {
    const files = { "m.mjs": 'export * from "some-package";\nexport const own = () => 1;\n' };
    expect(await exportsCheck(files, "./m.mjs", ["own", "fromThePackage"])).toEqual([]);
  });

  it("a re-export into a symbolic link out of the project is not followed", async () => {
    const outside = project({ "secret.mjs": "export const leaked = () => 1;\n" });
    const dir = project({ "m.mjs": 'export * from "./link/secret.mjs";\n' });
    symlinkSync(outside, join(dir, "link"));
    // `leaked` is not known (the file was not read), and nothing is claimed missing either.
    expect(await exportsCheckIn(dir, "./m.mjs", ["leaked", "nothing"])).toEqual([]);
  });
});
