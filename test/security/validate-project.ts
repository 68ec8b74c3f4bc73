/**
 * Throwaway projects for the validate security tests, and the built CLI run on them as CI would run
 * it: a real `node bin/graphspec.js validate` process, its exit code, stdout and stderr.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, expect } from "vitest";

export const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "bin", "graphspec.js");

export const FORMATS = ["pretty", "json", "github", "sarif"] as const;

/** A secret the CLI's environment holds, as CI secrets do. */
export const SECRET = "gs-test-secret-7f3a9c";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A fresh directory outside any project, removed after the file's tests. */
export function tempDir(prefix = "graphspec-security-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** A project: package.json (`"type": "module"`) and the given files, in a fresh temp directory. */
export function project(files: Record<string, string>): string {
  const dir = tempDir();
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `graphspec validate ARGS` in `dir`, with SECRET in its environment. A guard of two minutes makes
 * a hang a failure rather than a stuck suite; it is not a timing assertion.
 */
export function validateCli(
  dir: string,
  args: string[],
  env: Record<string, string> = {},
): CliResult {
  expect(existsSync(join(ROOT, "dist", "cli", "main.js")), "run `npm run build` first").toBe(true);
  const r = spawnSync(process.execPath, [BIN, "validate", ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", NO_COLOR: "1", GRAPHSPEC_TEST_SECRET: SECRET, ...env },
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A spec whose one tool is the module's `ping` export (a plain function, so the spec gives schema and description). */
export const toolSpec = (module: string, name = "uses-tool") => `version: 1
name: ${name}
state:
  reply: { type: string }
tools:
  ping: { module: ${module}, description: Ping., schema: { type: object } }
nodes:
  call: { kind: tool, tool: ping, write: reply }
edges:
  - { from: START, to: call }
  - { from: call, to: END }
`;

/** A spec with one error: an edge to a node that does not exist. */
export const brokenSpec = (target: string) => `version: 1
name: broken
state:
  n: { type: integer }
nodes:
  a: { kind: set, values: { n: 1 } }
edges:
  - { from: START, to: a }
  - { from: a, to: ${target} }
`;
