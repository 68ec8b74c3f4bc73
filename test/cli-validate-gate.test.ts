/**
 * The CI gate of `graphspec validate`: what `--max-warnings` accepts, and what `-q` prints. The real
 * CLI on real files.
 */
import { describe, expect, it } from "vitest";
import { MINIMAL_SPEC } from "./helpers.js";
import { project, validateCli } from "./security/validate-project.js";

/** One schema finding at 2:7, a warning with `--rule schema=warning`. */
const WARNS = MINIMAL_SPEC.replace("name: minimal", "name: Minimal");
/** A duplicate-key error and a schema finding (a warning, below), both at line 10. */
const ERROR_AND_WARNING = `${WARNS}name: Again\n`;
const AS_WARNING = ["--rule", "schema=warning"];

describe("--max-warnings takes only a whole number ≥ 0", () => {
  it("refuses '', spaces, exponents, hex, signs and fractions with a usage error (exit 2)", () => {
    const dir = project({ "a.yaml": WARNS });
    for (const value of ["", " ", "1e1", "0x10", "-1", "+1", "1.5", " 1", "1 ", "Infinity", "١"]) {
      const r = validateCli(dir, [`--max-warnings=${value}`, ...AS_WARNING, "a.yaml"]);
      expect(r.status, JSON.stringify(value)).toBe(2);
      expect(r.stderr, JSON.stringify(value)).toContain(
        `--max-warnings takes a whole number ≥ 0 (0, 10), not "${value}"`,
      );
      expect(r.stdout, JSON.stringify(value)).toBe("");
    }
    // `--max-warnings=` is the empty string too.
    expect(validateCli(dir, ["--max-warnings=", "a.yaml"]).status).toBe(2);
  });

  it("reads digits as the number they write: 0 and 00 fail one warning, 1 and 10 let it pass", () => {
    const dir = project({ "a.yaml": WARNS });
    const status = (n: string) =>
      validateCli(dir, ["--max-warnings", n, ...AS_WARNING, "a.yaml"]).status;
    expect([status("0"), status("00"), status("1"), status("10")]).toEqual([1, 1, 0, 0]);
  });
});

describe("-q prints only what fails", () => {
  it("warnings over --max-warnings: only the failure line, no '✔ valid' above it (pretty and github)", () => {
    const dir = project({ "a.yaml": WARNS });
    for (const format of ["pretty", "github"]) {
      const r = validateCli(dir, [
        "-q",
        "-f",
        format,
        "--max-warnings",
        "0",
        ...AS_WARNING,
        "a.yaml",
      ]);
      expect(r, format).toEqual({
        status: 1,
        stdout: "",
        stderr: "1 warning exceeds --max-warnings 0\n",
      });
    }
  });

  it("a passing run prints nothing, however many warnings it hides", () => {
    const dir = project({ "a.yaml": WARNS, "ok.yaml": MINIMAL_SPEC });
    for (const format of ["pretty", "github"]) {
      const r = validateCli(dir, ["-q", "-f", format, ...AS_WARNING, "a.yaml", "ok.yaml"]);
      expect(r, format).toEqual({ status: 0, stdout: "", stderr: "" });
    }
  });

  it("errors: the errors, and a summary that counts the hidden warnings too", () => {
    const dir = project({ "a.yaml": ERROR_AND_WARNING });
    const r = validateCli(dir, ["-q", ...AS_WARNING, "a.yaml"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^a\.yaml:10:1: error: .*\[duplicate-key\]/);
    expect(r.stdout).not.toContain("warning");
    expect(r.stderr).toBe("✖ 1 error, 1 warning in 1 file\n");
  });
});
