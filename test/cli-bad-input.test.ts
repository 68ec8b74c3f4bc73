/**
 * Bad input is never an internal error: key files, Auth modules and option values the user got
 * wrong are usage errors (exit 2) naming the option and the fix, never "internal error … Please
 * report this." with a stack. Runs `main` in-process (the code path of the CLI) with a captured
 * Io; serve/dev invocations are always left with a bad part, so nothing starts listening.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Io } from "../src/cli/io.js";
import { main } from "../src/cli/main.js";
import { MINIMAL_SPEC } from "./helpers.js";

const GRAPHS = join(import.meta.dirname, "fixtures/server-replicas/graphs");

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "graphspec-bad-input-"));
  const files: Record<string, string> = {
    "short.json": JSON.stringify({ short: "t1" }),
    "not-json.json": "{ not json",
    "array.json": JSON.stringify(["0123456789abcdef0123"]),
    "number-tenant.json": JSON.stringify({ "0123456789abcdef0123": 7 }),
    "empty-tenant.json": JSON.stringify({ "0123456789abcdef0123": "" }),
    "empty-object.json": "{}",
    "empty.json": "",
    "null.json": "null",
    "no-auth-export.mjs": "export const other = 1;\n",
    "not-a-function.mjs": "export const auth = 42;\n",
    "throws.mjs": 'throw new Error("boom at import");\n',
    "syntax.ts": "export const auth = {;\n",
    "keys.json": JSON.stringify({ "fuzz-test-key-0123456789": "t1" }),
    "spec.yaml": "version: 1\n",
    "valid.yaml": MINIMAL_SPEC,
    // Only a marker of the project root: its content must not matter.
    "graphspec.config.json": "{ malformed",
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  mkdirSync(join(dir, "a-directory"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(...argv: string[]) {
  let out = "";
  let err = "";
  const io: Io = {
    out: (t) => {
      out += `${t}\n`;
    },
    err: (t) => {
      err += `${t}\n`;
    },
    isTty: false,
    cwd: dir,
  };
  const code = await main(argv, io);
  return { code, out, err };
}

/** What every answer to bad input must be: a usage error, no stack, no plea to report it. */
function expectUsageError(r: { code: number; err: string }, option: string) {
  expect(r.err).not.toContain("internal error");
  expect(r.err).not.toContain("Please report this");
  expect(r.err).not.toMatch(/\n\s+at /);
  expect(r.code).toBe(2);
  expect(r.err).toContain(option);
}

const serve = (...args: string[]) =>
  cli("serve", GRAPHS, "--port", "0", "--host", "127.0.0.1", "--checkpointer", "memory", ...args);

describe("paths are the caller's: main() with io.cwd elsewhere than the process's folder", () => {
  it("run finds a relative spec from io.cwd, as validate does (resume takes the same path)", async () => {
    expect(process.cwd()).not.toBe(dir);
    const run = await cli("run", "valid.yaml", "--checkpointer", "memory", "--json");
    expect(run.err).toBe("");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out)).toMatchObject({ status: "completed" });
  });
});

describe("serve --api-keys with a bad key file", () => {
  it("a key shorter than 16 characters names the option and how to make a key", async () => {
    const r = await serve("--api-keys", "short.json");
    expectUsageError(r, "--api-keys");
    expect(r.err).toContain("at least 16 characters");
    expect(r.err).toContain("openssl rand");
  });

  it.each([
    ["missing.json", "ENOENT"],
    ["a-directory", "--api-keys"],
    ["not-json.json", "not valid JSON"],
    ["empty.json", "not valid JSON"],
    ["null.json", "JSON object"],
    ["array.json", "JSON object"],
    ["number-tenant.json", "tenant"],
    ["empty-tenant.json", "tenant"],
    ["empty-object.json", "no keys"],
  ])("%s is a usage error (%s)", async (file, says) => {
    const r = await serve("--api-keys", file);
    expectUsageError(r, "--api-keys");
    expect(r.err).toContain(says);
  });
});

describe("serve --auth with a bad module", () => {
  it("a module that does not exist says so, and what --auth takes", async () => {
    const r = await serve("--auth", "missing.mjs:auth");
    expectUsageError(r, "--auth");
    expect(r.err).toContain("no such file");
    expect(r.err).toContain("path/to/auth.ts:exportName");
  });

  it.each([
    ["missing.mjs"],
    ["a-directory"],
    ["no-auth-export.mjs"],
    ["no-auth-export.mjs:other"],
    ["not-a-function.mjs"],
    ["throws.mjs"],
    ["not-json.json"],
  ])("%s is a usage error naming --auth", async (spec) => {
    const r = await serve("--auth", spec);
    expectUsageError(r, "--auth");
  });
});

describe("output paths that cannot be written", () => {
  it("types --out naming a file (not a folder) is a usage error naming --out", async () => {
    const r = await cli("types", "valid.yaml", "--out", "spec.yaml");
    expectUsageError(r, "--out");
    expect(r.err).toContain("folder");
  });

  it.each([["spec.yaml"], ["spec.yaml/inside"]])(
    "export --out %s (a file, not a folder) is a usage error naming --out",
    async (out) => {
      const r = await cli("export", "langgraph", "valid.yaml", "--out", out);
      expectUsageError(r, "--out");
      expect(r.err).toContain("folder");
    },
  );
});

/** Values a user might type wrong: numbers out of range, not numbers, paths that are not files. */
const junk = fc.oneof(
  fc.constantFrom(
    "",
    "0",
    "-1",
    "1e400",
    "NaN",
    "0x10",
    "99999999999999999999",
    "1.5",
    "10kb",
    "1GB",
    "abc",
    "@missing.json",
    "@a-directory",
    "@not-json.json",
    "@empty.json",
    "{",
    "[]",
    "null",
    '{"a":',
    "**/*",
    "[",
    "json",
    "sarif",
    "png",
    "missing.json",
    "a-directory",
    "short.json",
    "array.json",
    "throws.mjs",
    "no-auth-export.mjs:nope",
    "not-a-function.mjs",
    "spec.yaml/inside",
    "a-directory/new/out.png",
    "/dev/null/x",
    "*.yaml",
    "a-directory/**",
  ),
  fc.string({ maxLength: 12 }),
);

/** serve/dev options; each generated invocation keeps one bad part so nothing starts. */
const SERVER_OPTIONS = [
  "--port",
  "--host",
  "--checkpointer",
  "--max-body-bytes",
  "--max-run-event-bytes",
  "--max-event-bytes",
  "--max-queued-per-tenant",
  "--max-running-per-tenant",
  "--grace",
  "--heartbeat",
  "--scripts",
  "--allow-origin",
  "--allow-host",
];
const OTHER = {
  validate: ["--format", "--max-warnings", "--rule", "--load-timeout", "--load-env"],
  draw: ["--format", "--out"],
  run: [
    "--input",
    "--context",
    "--checkpointer",
    "--thread",
    "--max-tokens",
    "--deadline",
    "--model",
    "--recursion-limit",
    "--interrupt-before",
    "--allow-tools",
    "--store",
    "--scripts",
    "--max-input-bytes",
    "--max-state-bytes",
    "--max-thread-bytes",
  ],
  resume: ["--thread", "--value", "--max-resume-bytes", "--checkpointer"],
  types: ["--out"],
  export: ["--out", "--auth"],
  test: ["--test"],
  threads: ["--checkpointer", "--prefix"],
  init: ["--force"],
  migrate: ["--check"],
  lock: ["--load-timeout", "--load-env"],
  graphs: ["--json"],
} as const;

describe("fuzz: every bad option value is exit 0, 1 or 2 and never an internal error", () => {
  it("serve and dev with a bad key file or Auth module plus random option values", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("serve", "dev"),
        fc.constantFrom("--api-keys", "--auth"),
        fc.constantFrom(
          "short.json",
          "missing.json",
          "a-directory",
          "not-json.json",
          "array.json",
          "number-tenant.json",
          "empty-object.json",
          "empty.json",
          "missing.mjs",
          "no-auth-export.mjs",
          "not-a-function.mjs",
          "throws.mjs",
          "syntax.ts",
          "keys.json",
        ),
        fc.array(fc.tuple(fc.constantFrom(...SERVER_OPTIONS), junk), { maxLength: 4 }),
        // With a good key file, one of these keeps the invocation from starting a server.
        fc.constantFrom(
          ["--grace", "abc"],
          ["--heartbeat", "5"],
          ["--max-body-bytes", "lots"],
          ["--max-event-bytes", "-1"],
          ["--max-queued-per-tenant", "0"],
          ["--max-running-per-tenant", "2.5"],
          ["--port", "70000"],
          ["--allow-host", "a b"],
          ["--allow-origin", "not a url"],
          ["--scripts", "{"],
        ),
        async (command, authOption, file, options, bad) => {
          const r = await cli(
            command,
            GRAPHS,
            ...options.flat(),
            // Last, so a random value cannot take their place: the invocation always has a bad part.
            "--port",
            "0",
            "--checkpointer",
            "memory",
            authOption,
            file,
            ...(file === "keys.json" ? bad : []),
          );
          expect([0, 1, 2]).toContain(r.code);
          expect(r.code).not.toBe(0);
          expect(r.err).not.toContain("internal error");
          expect(r.err).not.toContain("Please report this");
          expect(r.err).not.toMatch(/\n\s+at /);
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 60) },
    );
  }, 60_000);

  it("reaches past option parsing: the fuzz's valid spec runs", async () => {
    const r = await cli("run", join(dir, "valid.yaml"), "--checkpointer", "memory");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
  });

  it("the other commands with random option values and positionals", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(...(Object.keys(OTHER) as (keyof typeof OTHER)[]))
          .chain((command) =>
            fc.tuple(
              fc.constant(command),
              fc.array(fc.tuple(fc.constantFrom(...OTHER[command]), junk), { maxLength: 3 }),
              fc.constantFrom(
                "valid.yaml",
                "spec.yaml",
                "missing.yaml",
                "a-directory",
                "not-json.json",
              ),
            ),
          ),
        async ([command, options, positional]) => {
          // Relative to io.cwd, as every command takes a path (run and resume included).
          const spec = positional;
          const target = command === "export" ? ["langgraph"] : [];
          const r = await cli(command, ...target, spec, ...options.flat());
          expect([0, 1, 2]).toContain(r.code);
          expect(r.err).not.toContain("internal error");
          expect(r.err).not.toContain("Please report this");
          expect(r.err).not.toMatch(/\n\s+at /);
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 150) },
    );
  }, 60_000);
});
