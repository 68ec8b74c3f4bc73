/**
 * `.env` at the project root, as a user meets it: the built CLI (`run`, `test`, `serve`, `export`)
 * in a project of its own, reading the file without overriding the real environment, masking its
 * secret values, `--env-file` naming another file, and a missing or malformed file refused.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../src/cli/main.js";

const BIN = join(import.meta.dirname, "..", "bin", "graphspec.js");
const dir = mkdtempSync(join(tmpdir(), "graphspec-cli-env-"));
const started: ChildProcess[] = [];
afterAll(() => {
  for (const p of started) if (p.exitCode === null && p.signalCode === null) p.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));
// What a node sees of the environment, written into the state (and so into the checkpoints).
writeFileSync(
  join(dir, "peek.mjs"),
  `export default async () => ({
  token: process.env.PEEK_TOKEN ?? "unset",
  setting: process.env.PEEK_SETTING ?? "unset",
  port: process.env.PEEK_PORT ?? "unset",
  kept: process.env.PEEK_KEPT ?? "unset",
  endpoint: process.env.PEEK_ENDPOINT ?? "unset",
});
`,
);
writeFileSync(
  join(dir, "graphs", "peek.yaml"),
  `version: 1
name: peek
state:
  token: { type: string, default: "" }
  setting: { type: string, default: "" }
  port: { type: string, default: "" }
  kept: { type: string, default: "" }
  endpoint: { type: string, default: "" }
nodes:
  look: { kind: function, module: ../peek.mjs }
edges:
  - { from: START, to: look }
  - { from: look, to: END }
`,
);
const DOTENV = `# the project's secrets
PEEK_TOKEN="tok-from-dotenv-0123"
PEEK_SETTING=abc123def456ghi789
PEEK_PORT=8080
export PEEK_KEPT=from-dotenv
PEEK_ENDPOINT=https://app:hunter2-pass@db.example.com/main
`;
writeFileSync(join(dir, ".env"), DOTENV);
writeFileSync(join(dir, "other.env"), "PEEK_PORT=9090\n");

/** The environment without the variables the tests set (a developer's shell may have any). */
const baseEnv = () => {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" };
  for (const k of Object.keys(env)) if (k.startsWith("PEEK_")) delete env[k];
  return env;
};
const graphspec = (args: string[], env: Record<string, string> = {}) => {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { ...baseEnv(), ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe("graphspec run reads .env", () => {
  it("sets what the environment lacks, never what it has, and masks the secret values", () => {
    const r = graphspec(["run", "peek", "--checkpointer", "memory", "--json"], {
      PEEK_KEPT: "from-the-shell",
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.output).toEqual({
      // A secret-looking name: masked, whatever its value.
      token: "***",
      // Any other value long enough to be a credential and not a plain word or number: masked.
      setting: "***",
      // Short values under names that do not look secret are settings, shown as they are.
      port: "8080",
      // The real environment wins over the file.
      kept: "from-the-shell",
      // A URL is not a secret, its password is.
      endpoint: "https://app:***@db.example.com/main",
    });
    expect(r.stdout).not.toContain("tok-from-dotenv-0123");
    expect(r.stdout).not.toContain("abc123def456ghi789");
  });

  it("masks them in the events too (--progress on stderr) and in the checkpoints", () => {
    const run = graphspec(["run", "peek", "--thread", "t-mask", "--progress", "--json"]);
    expect(run.status).toBe(0);
    expect(run.stderr + run.stdout).not.toContain("tok-from-dotenv-0123");
    const shown = graphspec(["threads", "show", "t-mask", "--json"]);
    expect(shown.status).toBe(0);
    expect(shown.stdout).toContain("***");
    expect(shown.stdout).not.toContain("tok-from-dotenv-0123");
    expect(shown.stdout).not.toContain("abc123def456ghi789");
  });

  it("--env-file names another file, read in place of .env", () => {
    const r = graphspec([
      "run",
      "peek",
      "--checkpointer",
      "memory",
      "--json",
      "--env-file",
      "other.env",
    ]);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).output).toMatchObject({ token: "unset", port: "9090" });
  });

  it("a missing --env-file is a usage error naming the option and the file", async () => {
    const err: string[] = [];
    const io = { out: () => {}, err: (t: string) => err.push(t), isTty: false, cwd: dir };
    expect(await main(["run", "peek", "--env-file", "nowhere.env"], io)).toBe(2);
    expect(err.join("")).toContain("--env-file nowhere.env: no such file");
    // Through the command line, Node.js itself looks for a file after any `--env-file`, even one
    // given to the program, and stops the process first (exit 9, naming the file): nothing runs.
    const r = graphspec(["run", "peek", "--env-file", "nowhere.env"]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("nowhere.env");
    expect(r.stdout).toBe("");
  });

  it("a malformed line is an error naming file:line, and nothing runs", () => {
    writeFileSync(join(dir, "bad.env"), 'GOOD=1\n\nthis is not a variable\nQ="open\n');
    const r = graphspec(["run", "peek", "--env-file", "bad.env"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("bad.env:3");
    expect(r.stderr).toContain("NAME=value");
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe("");
    writeFileSync(join(dir, "bad.env"), 'GOOD=1\nQ="open\nNEXT=2\n');
    const open = graphspec(["run", "peek", "--env-file", "bad.env"]);
    expect(open.status).toBe(2);
    expect(open.stderr).toContain("bad.env:2");
  });
});

describe("graphspec test reads .env", () => {
  it("a fixture's run sees the file's variables", () => {
    writeFileSync(
      join(dir, "graphs", "peek.test.yaml"),
      `graph: peek.yaml
tests:
  - name: sees the project's settings
    expect: { output: { port: "8080", token: "***" } }
`,
    );
    const r = graphspec(["test", "graphs/peek.test.yaml"]);
    expect(r.stdout).toContain("1 passed");
    expect(r.status).toBe(0);
    const other = graphspec(["test", "graphs/peek.test.yaml", "--env-file", "other.env"]);
    expect(other.status).toBe(1);
    expect(other.stdout).toContain('"9090"');
  });
});

describe("graphspec serve reads .env", () => {
  it("a run over HTTP sees the file's variables, its secrets masked", async () => {
    const proc = spawn(
      process.execPath,
      [BIN, "serve", "--no-auth", "--host", "127.0.0.1", "--port", "0", "--checkpointer", "memory"],
      { cwd: dir, stdio: ["ignore", "pipe", "pipe"], env: baseEnv() },
    );
    started.push(proc);
    let err = "";
    proc.stderr!.on("data", (d) => {
      err += d;
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      proc.stdout!.on("data", (d) => {
        out += d;
        if (out.includes("\n")) resolve(out.split("\n")[0]!);
      });
      proc.once("exit", (code) => reject(new Error(`exited ${code}: ${err}`)));
    });
    const res = await fetch(`${url}/runs/wait`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ assistant_id: "peek", input: {} }),
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ token: "***", port: "8080", kept: "from-dotenv" });
    proc.kill("SIGTERM");
  });

  it("a missing --env-file stops serve before it listens", async () => {
    const err: string[] = [];
    const io = { out: () => {}, err: (t: string) => err.push(t), isTty: false, cwd: dir };
    expect(await main(["serve", "--no-auth", "--env-file", "nowhere.env"], io)).toBe(2);
    expect(err.join("")).toContain("--env-file nowhere.env: no such file");
  });
});

describe("graphspec export carries .env", () => {
  it("--env-file names the file in langgraph.json's env, relative to it; values are not copied", () => {
    const r = graphspec(["export", "langgraph", "--out", "exported", "--env-file", "other.env"]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const config = readFileSync(join(dir, "exported", "langgraph.json"), "utf8");
    expect(JSON.parse(config).env).toBe("../other.env");
    expect(config).not.toContain("9090");
  });
});
