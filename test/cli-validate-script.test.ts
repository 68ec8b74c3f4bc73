/**
 * `graphspec validate` runs from one script of its modules and packages (dist/cli/validate.cjs):
 * it finds what the modules find, and keeps V8's code cache of its script (dist/cli/validate.cjs) between runs,
 * as Node's compile cache does for modules: in NODE_COMPILE_CACHE (default: the OS temp folder),
 * off with NODE_DISABLE_COMPILE_CACHE=1, only in a folder of the user's own, and a broken entry
 * costs a recompile, never a wrong result. Through the built CLI (`npm run build` first).
 */

import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, graphspecIn, ROOT, scratchDir } from "./support/cli.js";

const SPEC = join(ROOT, "test/fixtures/valid/minimal.yaml");
const BAD = join(ROOT, "test/fixtures/invalid");
const uid = process.getuid?.();
const folderName = uid === undefined ? "graphspec" : `graphspec-${uid}`;

/** A fresh NODE_COMPILE_CACHE folder and `graphspec` run with it. */
function withCache(env: NodeJS.ProcessEnv = {}) {
  const cache = join(scratchDir("code-cache"), "cache");
  const graphspec = graphspecIn(ROOT, { NODE_COMPILE_CACHE: cache, ...env });
  const entries = () => {
    const dir = join(cache, folderName);
    return existsSync(dir) ? readdirSync(dir).map((f) => join(dir, f)) : [];
  };
  return { cache, graphspec, entries };
}

describe("validate's script", () => {
  /** `graphspec validate …` from the modules as tsc built them (dist/cli/main.js). */
  const fromModules = (args: string[]) => {
    const r = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const { main } = await import("./dist/cli/main.js");
process.exitCode = await main(["validate", ...${JSON.stringify(args)}]);`,
      ],
      { cwd: ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } },
    );
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const graphspec = graphspecIn(ROOT);

  it.each([
    // Every fixture: YAML and JSON, each rule's findings, patterns, modules of every kind.
    ["test/fixtures", "--format", "json"],
    ["test/fixtures", "--format", "github"],
    ["graphs", "--format", "sarif"],
    // Modules loaded in their own processes (tsx, from the script's folder).
    ["graphs/support-triage.yaml", "--load-modules", "--format", "json"],
  ])("finds what the modules find: validate %s %s %s", (...args) => {
    const bundled = graphspec("validate", ...args);
    expect(bundled.stderr).not.toContain("internal error");
    expect(bundled).toEqual(fromModules(args));
  });
});

describe("validate's code cache", () => {
  it("is written on the first run, named by the script and the Node, and read on the next", () => {
    const { graphspec, entries } = withCache();
    const first = graphspec("validate", SPEC, "--format", "json");
    expect(first.status).toBe(0);
    const [entry, ...more] = entries();
    expect(more).toEqual([]);
    const hash = /^\/\/ graphspec validate script ([0-9a-f]{16})\n/.exec(
      readFileSync(join(ROOT, "dist/cli/validate.cjs"), "utf8"),
    )?.[1];
    expect(entry).toMatch(new RegExp(`${hash}-${process.version}-${process.arch}\\.v8$`));
    const written = readFileSync(entry!);
    // From the cache: the same findings, and the entry is left as it was.
    const second = graphspec("validate", SPEC, "--format", "json");
    expect(second).toEqual(first);
    expect(readFileSync(entry!).equals(written)).toBe(true);
  });

  it("a broken entry is recompiled and replaced; findings are the same", () => {
    const { graphspec, entries } = withCache();
    const clean = graphspec("validate", BAD, "--format", "json");
    expect(clean.status).toBe(1);
    const [entry] = entries();
    const good = readFileSync(entry!);
    // Bytes that are no code cache, then a real entry cut short.
    for (const broken of [Buffer.alloc(good.length, 7), good.subarray(0, good.length >> 1)]) {
      writeFileSync(entry!, broken);
      const again = graphspec("validate", BAD, "--format", "json");
      expect(again).toEqual(clean);
      expect(readFileSync(entry!).equals(broken)).toBe(false);
    }
  });

  it("NODE_DISABLE_COMPILE_CACHE=1 reads and writes none", () => {
    const { graphspec, entries } = withCache({ NODE_DISABLE_COMPILE_CACHE: "1" });
    expect(graphspec("validate", SPEC).status).toBe(0);
    expect(entries()).toEqual([]);
  });

  it.skipIf(uid === undefined)("a folder others can write to is not used", () => {
    const { cache, graphspec, entries } = withCache();
    mkdirSync(join(cache, folderName), { recursive: true });
    chmodSync(join(cache, folderName), 0o777);
    const r = graphspec("validate", SPEC);
    expect(r.status).toBe(0);
    expect(r.stderr).not.toMatch(/error|warning/i);
    expect(entries()).toEqual([]);
  });

  it("with --enable-source-maps, an internal error's stack names the TypeScript sources", () => {
    // stdout that throws on write: `--format json` writes the findings there, inside validate.
    const r = spawnSync(
      process.execPath,
      [
        "--enable-source-maps",
        "--import",
        "data:text/javascript,process.stdout.write = () => { throw new Error('stdout is gone'); };",
        BIN,
        "validate",
        SPEC,
        "--format",
        "json",
      ],
      { cwd: ROOT, encoding: "utf8" },
    );
    expect(r.stderr).toContain("internal error: Error: stdout is gone");
    expect(r.stderr).toMatch(/at validateCommand \(\S*src\/cli\/commands\/validate\.ts:\d+:\d+\)/);
  });
});
