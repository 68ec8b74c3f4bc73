/**
 * One file named several ways on `graphspec validate`'s command line is checked once, so a CI gate
 * (`--max-warnings`) does not depend on how the workflow spells its paths. The real CLI, real
 * files, real symbolic and hard links.
 */
import { linkSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MINIMAL_SPEC } from "./helpers.js";
import { project, tempDir, validateCli } from "./security/validate-project.js";

/** One schema finding (made a warning below), at 2:7. */
const WARNS = MINIMAL_SPEC.replace("name: minimal", "name: Minimal");
const AS_WARNING = ["--rule", "schema=warning", "--max-warnings", "1", "-f", "json"];

const files = (stdout: string) => (JSON.parse(stdout) as { file: string }[]).map((d) => d.file);

describe("the same file named in several spellings is checked once", () => {
  it("./a, a, dir//a, an absolute path, a link inside the project, a hard link, overlapping globs: one warning, under --max-warnings 1", () => {
    const dir = project({ "graphs/a.yaml": WARNS, "graphs/deep/b.yaml": MINIMAL_SPEC });
    symlinkSync(join(dir, "graphs", "a.yaml"), join(dir, "graphs", "alias.yaml"));
    linkSync(join(dir, "graphs", "a.yaml"), join(dir, "graphs", "hard.yaml"));
    const spellings: string[][] = [
      ["graphs/a.yaml", "./graphs/a.yaml"],
      ["./graphs/a.yaml", "graphs/a.yaml", "graphs//a.yaml", "graphs/deep/../a.yaml"],
      ["graphs/a.yaml", join(dir, "graphs", "a.yaml")],
      ["graphs/a.yaml", "graphs/alias.yaml"],
      ["graphs/a.yaml", "graphs/hard.yaml"],
      ["graphs/**/*.yaml", "graphs/*.yaml", "graphs", "./graphs/"],
    ];
    for (const args of spellings) {
      const r = validateCli(dir, [...AS_WARNING, ...args]);
      expect(r.status, args.join(" ")).toBe(0);
      expect(files(r.stdout), args.join(" ")).toEqual([
        args[0]!.includes("*") ? "graphs/a.yaml" : args[0],
      ]);
      // The pretty summary counts the file once too.
      const pretty = validateCli(dir, [...AS_WARNING.slice(0, -2), ...args]);
      expect(pretty.stderr, args.join(" ")).toMatch(/^✖ 0 errors, 1 warning in [12] files?\n$/);
    }
  });

  it("a link leading out of the project, reached several ways, is one path-escape finding", () => {
    const outside = tempDir("graphspec-outside-");
    writeFileSync(join(outside, "x.yaml"), MINIMAL_SPEC);
    const dir = project({ "graphs/a.yaml": MINIMAL_SPEC });
    symlinkSync(outside, join(dir, "graphs", "out"));
    symlinkSync(join(outside, "x.yaml"), join(dir, "graphs", "out.yaml"));
    const r = validateCli(dir, [
      "--rule",
      "path-escape=warning",
      "--max-warnings",
      "2",
      "-f",
      "json",
      "graphs/out.yaml",
      "./graphs/out.yaml",
      join(dir, "graphs", "out.yaml"),
      "graphs",
      "graphs/out",
      "graphs/out/",
      "graphs/*.yaml",
    ]);
    expect(files(r.stdout)).toEqual(["graphs/out.yaml", "graphs/out"]);
    expect(r.status).toBe(0);
  });
});
