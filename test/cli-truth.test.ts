/** The CLI tells the truth: refused arguments, threads of scripted graphs, resume commands that work. Built CLI, project of its own. */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const BIN = join(ROOT, "bin", "graphspec.js");
const dir = mkdtempSync(join(tmpdir(), "graphspec-cli-truth-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// A copy of the repository's own example project: graphs/, tools/, and the packages its tools import.
writeFileSync(join(dir, "package.json"), "{}");
cpSync(join(ROOT, "graphs"), join(dir, "graphs"), { recursive: true });
cpSync(join(ROOT, "tools"), join(dir, "tools"), { recursive: true });
symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));

const { GRAPHSPEC_CHECKPOINTER: _, ...env } = process.env;
const graphspec = (args: string[], cwd = dir) => {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...env, NO_COLOR: "1" },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};
const urgent = JSON.stringify({
  "support-triage": [{ structured: { priority: "urgent", reason: "locked out" } }],
});
const triage = ["support-triage", "-i", '{"ticket":"T-1"}', "-c", '{"user_id":"u-1"}'];

describe("refused arguments", () => {
  it('`--thread ""` is refused (exit 2), not a silent new thread', () => {
    for (const args of [
      ["run", ...triage, "--scripts", urgent, "--thread", ""],
      ["resume", "support-triage", "--thread", "", "--value", "true"],
      ["threads", "show", ""],
    ]) {
      const r = graphspec(args);
      expect(r.status, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/thread id is empty/);
    }
    expect(graphspec(["threads", "list", "--json"]).stdout.trim()).toBe("[]");
  });
});

describe("threads tell the truth", () => {
  it("`threads show` of the repository's own scripted example shows where it stands (no internal error)", () => {
    const run = graphspec(["run", ...triage, "--scripts", urgent, "--thread", "shown-1"]);
    expect(run.status).toBe(0);
    const r = graphspec(["threads", "show", "shown-1"]);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^shown-1: interrupted, next: approval/);
    expect(r.stdout).toMatch(/approval asks/);
    const history = graphspec(["threads", "show", "shown-1", "--history", "--json"]);
    expect(history.status).toBe(0);
    expect(JSON.parse(history.stdout).history.length).toBeGreaterThan(1);
  });

  it("a thread whose run failed shows `failed` with its error, not `interrupted`", () => {
    const failing = JSON.stringify({ "support-triage": [{ error: "429 Rate limit reached" }] });
    const run = graphspec(["run", ...triage, "--scripts", failing, "--thread", "failed-1"]);
    expect(run.status).toBe(1);
    const r = graphspec(["threads", "show", "failed-1", "--json"]);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      status: "failed",
      error: { code: "throttled", reason: "rate-limit", node: "classify" },
    });
    expect(graphspec(["threads", "show", "failed-1"]).stdout).toMatch(
      /^failed-1: failed, next: classify\n {2}node `classify` failed \[throttled\]/,
    );
  });
});

describe("the project root, explained", () => {
  it("without package.json/.git above the specs, `../tools/x.ts` is a path-escape whose hint says what sets the root and how to set it", () => {
    const bare = mkdtempSync(join(tmpdir(), "graphspec-bare-"));
    try {
      mkdirSync(join(bare, "specs"));
      mkdirSync(join(bare, "tools"));
      writeFileSync(join(bare, "tools", "x.ts"), 'export const x = async () => "x";\n');
      writeFileSync(
        join(bare, "specs", "g.yaml"),
        `version: 1
name: g
state:
  out: { type: string, default: "" }
tools:
  x: { module: ../tools/x.ts, export: x }
nodes:
  call: { kind: tool, tool: x, args: {}, write: out }
edges:
  - { from: START, to: call }
  - { from: call, to: END }
`,
      );
      const r = graphspec(["validate", "specs/g.yaml", "--format", "json"], bare);
      expect(r.status).toBe(1);
      const [d] = JSON.parse(r.stdout);
      expect(d.rule).toBe("path-escape");
      expect(d.message).toMatch(/outside the project root `\.\/` \(the spec's own folder\)/);
      expect(d.hint).toMatch(/package\.json, \.git or graphspec\.config\.json/);
      expect(d.hint).toMatch(/none was found above the spec/);
      expect(d.hint).toMatch(
        /add a graphspec\.config\.json \(`\{\}`\) to the folder that holds both, `\.\.\/` from the spec/,
      );
      // Doing what the hint says makes the path valid.
      writeFileSync(join(bare, "graphspec.config.json"), "{}");
      expect(graphspec(["validate", "specs/g.yaml"], bare).status).toBe(0);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});

describe("the resume command the CLI prints works", () => {
  writeFileSync(
    join(dir, "graphs", "secret-ask.yaml"),
    `version: 1
name: secret-ask
state:
  ok: { type: boolean, default: false }
  who: { type: string, default: "" }
context:
  user_id: { type: string, required: true }
  api_token: { type: string, required: true, secret: true }
nodes:
  ask: { kind: interrupt, payload: { question: go? }, write: ok }
  done: { kind: set, values: { who: "\${{ context.user_id }}" } }
edges:
  - { from: START, to: ask }
  - { from: ask, to: done }
  - { from: done, to: END }
`,
  );
  const context = '{"user_id":"u-1","api_token":"tok-123456"}';
  /** The printed `resume:` command's arguments (after `graphspec`), with placeholders filled in. */
  const printedResume = (stdout: string, fill: Record<string, string>): string[] => {
    const line = /^ {2}resume: graphspec (resume .*)$/m.exec(stdout)?.[1];
    expect(line, stdout).toBeDefined();
    return [...line!.matchAll(/'([^']*)'|(\S+)/g)].map((m) =>
      Object.entries(fill).reduce((arg, [from, to]) => arg.replace(from, to), m[1] ?? m[2]!),
    );
  };

  it("with --checkpointer memory, no resume command is printed: it says the pause ends with the command", () => {
    const r = graphspec(["run", "secret-ask", "-c", context, "--checkpointer", "memory"]);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toMatch(/graphspec resume/);
    expect(r.stdout).toMatch(/cannot be resumed: its checkpoints were kept in memory/);
    expect(r.stdout).toMatch(/--checkpointer sqlite/);
  });

  it("when a secret context key was left out of the thread, the command carries --context for it, and works", () => {
    const r = graphspec(["run", "secret-ask", "-c", context, "--thread", "secret-1"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/--context '\{"api_token":"<api_token>"\}'/);
    expect(r.stdout).toMatch(/`api_token` is secret: it is not stored with the thread/);
    const args = printedResume(r.stdout, { "<JSON>": "true", "<api_token>": "tok-123456" });
    const done = graphspec([...args, "--json"]);
    expect(JSON.parse(done.stdout)).toMatchObject({ status: "completed", output: { who: "u-1" } });
  });

  it("a resume that failed for want of the secret prints a command with --context, which works", () => {
    graphspec(["run", "secret-ask", "-c", context, "--thread", "secret-2"]);
    const failed = graphspec(["resume", "--thread", "secret-2", "--value", "true"]);
    expect(failed.status).toBe(1);
    expect(failed.stdout).toMatch(/\[invalid-context\]/);
    const args = printedResume(failed.stdout, { "<api_token>": "tok-123456" });
    expect(args).toContain("--context");
    // The answer was not taken (the context was refused first): give it again.
    const done = graphspec([...args, "--value", "true", "--json"]);
    expect(JSON.parse(done.stdout)).toMatchObject({ status: "completed", output: { who: "u-1" } });
  });
});
