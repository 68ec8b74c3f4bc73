/** `graphspec run` and `graphspec resume`, as a user runs them: the built CLI in a project of its own. */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const BIN = join(import.meta.dirname, "..", "bin", "graphspec.js");
const dir = mkdtempSync(join(tmpdir(), "graphspec-cli-run-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));
writeFileSync(
  join(dir, "graphs", "approve.yaml"),
  `version: 1
name: approve
state:
  draft: { type: string, default: "" }
  sent: { type: boolean, default: false }
nodes:
  ask:
    kind: interrupt
    payload: { question: "Send \${{ state.draft }}?" }
    schema: { type: boolean }
    write: sent
edges:
  - { from: START, to: ask }
  - { from: ask, to: END }
`,
);
writeFileSync(
  join(dir, "graphs", "broken.yaml"),
  "version: 1\nname: broken\nstate: {}\nnodes: {}\nedges: []\n",
);

const graphspec = (...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe("graphspec run / resume", () => {
  it("--json prints exactly one RunResult; the paused run survives to the next command", () => {
    const run = graphspec(
      "run",
      "approve",
      "--input",
      '{"draft":"hello"}',
      "--thread",
      "t1",
      "--json",
    );
    expect(run.status).toBe(0);
    expect(run.stdout.trim().split("\n")).toHaveLength(1);
    const paused = JSON.parse(run.stdout);
    expect(paused).toMatchObject({
      status: "interrupted",
      threadId: "t1",
      interrupts: [{ node: "ask", value: { question: "Send hello?" } }],
      next: ["ask"],
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      warnings: [],
    });
    const resumed = graphspec("resume", "approve", "--thread", "t1", "--value", "true", "--json");
    expect(resumed.status).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({
      status: "completed",
      output: { draft: "hello", sent: true },
    });
  });

  it("resuming a finished thread is a failed result that says so", () => {
    graphspec("run", "approve", "--thread", "t2", "--json");
    graphspec("resume", "approve", "--thread", "t2", "--value", "false", "--json");
    const again = graphspec("resume", "approve", "--thread", "t2", "--value", "true", "--json");
    expect(again.status).toBe(1);
    expect(JSON.parse(again.stdout).error).toMatchObject({ code: "nothing-to-resume" });
  });

  it("prints a readable summary with the command that resumes", () => {
    const run = graphspec("run", "approve", "--thread", "t3");
    expect(run.stdout).toContain("⏸ paused on thread t3");
    expect(run.stdout).toContain('"question": "Send ?"');
    expect(run.stdout).toContain("resume: graphspec resume approve --thread t3 --value '<JSON>'");
  });

  it("a refused resume keeps the run paused and shows why", () => {
    graphspec("run", "approve", "--thread", "t4", "--json");
    const refused = JSON.parse(
      graphspec("resume", "approve", "--thread", "t4", "--value", '"yes"', "--json").stdout,
    );
    expect(refused.status).toBe("interrupted");
    expect(refused.interrupts[0].value.error.message).toBe(
      'the resume value was refused: `resume` must be true or false, not the string "yes"',
    );
  });

  it("usage errors exit 2; a spec with errors exits 1 with file:line:col", () => {
    const bad = graphspec("run", "approve", "--input", "{nope");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--input is not valid JSON/);
    const broken = graphspec("run", "broken");
    expect(broken.status).toBe(1);
    expect(broken.stderr).toMatch(/graphs\/broken\.yaml:\d+:\d+: /);
  });

  it("--require-durable refuses a pausable graph on memory checkpoints; without it, a warning", () => {
    const refused = graphspec(
      "run",
      "approve",
      "--checkpointer",
      "memory",
      "--require-durable",
      "--json",
    );
    expect(refused.status).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({
      status: "failed",
      error: { code: "not-durable" },
    });
    const warned = graphspec("run", "approve", "--checkpointer", "memory");
    expect(warned.status).toBe(0);
    expect(warned.stderr).toMatch(
      /^warning: graph `approve` can pause for a person, and its checkpoints are kept in memory only/,
    );
  });

  it("resume without a spec: the thread remembers its graph", () => {
    graphspec("run", "approve", "--thread", "t6", "--json");
    const done = graphspec("resume", "--thread", "t6", "--value", "true", "--json");
    expect(done.status).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ status: "completed", output: { sent: true } });
    const unknown = graphspec("resume", "--thread", "nope", "--value", "true");
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/thread `nope` is not known/);
  });

  it("threads list, show and delete (one, or all with a prefix)", () => {
    for (const t of ["erase-1", "erase-2", "keep-1"])
      graphspec("run", "approve", "--thread", t, "--json");
    const listed = JSON.parse(graphspec("threads", "list", "--json").stdout) as {
      threadId: string;
      graph: string;
    }[];
    expect(listed.map((t) => t.threadId)).toEqual(
      expect.arrayContaining(["erase-1", "erase-2", "keep-1"]),
    );
    expect(listed.find((t) => t.threadId === "keep-1")?.graph).toBe("graphs/approve.yaml");
    const shown = JSON.parse(graphspec("threads", "show", "keep-1", "--json").stdout);
    expect(shown).toMatchObject({ status: "interrupted", interrupts: [{ node: "ask" }] });
    expect(
      JSON.parse(
        graphspec("threads", "delete", "--prefix", "erase-", "--json").stdout,
      ).deleted.sort(),
    ).toEqual(["erase-1", "erase-2"]);
    expect(graphspec("threads", "delete", "keep-1").stdout.trim()).toBe("deleted keep-1");
    const left = (
      JSON.parse(graphspec("threads", "list", "--json").stdout) as { threadId: string }[]
    ).map((t) => t.threadId);
    expect(left).not.toContain("keep-1");
    expect(left).not.toContain("erase-1");
    expect(graphspec("threads", "show", "keep-1").status).toBe(1);
    expect(graphspec("threads", "delete", "--prefix", "").status).toBe(2);
  });

  it("--progress shows nodes, tool calls and streamed text on stderr; stdout keeps the summary", () => {
    const scripts = JSON.stringify({
      "support-triage": [
        { structured: { priority: "low", reason: "billing" } },
        { tool_calls: [{ name: "lookup_ticket", args: { ticket_id: "T-1002" } }] },
        "Ticket T-1002 is open.",
      ],
    });
    const root = join(import.meta.dirname, "..");
    const r = spawnSync(
      process.execPath,
      [
        BIN,
        "run",
        "support-triage",
        "--progress",
        "--checkpointer",
        "memory",
        "--input",
        '{"ticket":"T-1002"}',
        "--context",
        '{"user_id":"u-1"}',
        "--scripts",
        scripts,
      ],
      { cwd: root, encoding: "utf8" },
    );
    expect(r.status).toBe(0);
    expect(r.stderr.split("\n").filter(Boolean)).toEqual([
      "▶ classify",
      '  {"priority":"low","reason":"billing"}',
      "▶ investigate",
      '  ↳ lookup_ticket {"ticket_id":"T-1002"}',
      "  Ticket T-1002 is open.",
      "warning: graph `support-triage` can pause for a person, and its checkpoints are kept in memory only: a paused run is lost when this process ends",
    ]);
    expect(r.stdout).toMatch(/^✔ completed on thread /);
  });
});

writeFileSync(
  join(dir, "step.mjs"),
  `import { appendFileSync } from "node:fs";
export default async (state) => {
  appendFileSync(new URL("./started.log", import.meta.url), \`\${state.done.length + 1}\\n\`);
  await new Promise((r) => setTimeout(r, 300));
  return { done: [state.done.length + 1] };
};
`,
);
writeFileSync(
  join(dir, "graphs", "chain.yaml"),
  `version: 1
name: chain
state:
  done: { type: array, items: { type: integer }, reducer: append, default: [] }
nodes:
  s1: { kind: function, module: ../step.mjs }
  s2: { kind: function, module: ../step.mjs }
  s3: { kind: function, module: ../step.mjs }
edges:
  - { from: START, to: s1 }
  - { from: s1, to: s2 }
  - { from: s2, to: s3 }
  - { from: s3, to: END }
`,
);

describe("limits from the command line", () => {
  it("--deadline stops the run; resume goes on from the last checkpoint", () => {
    const stopped = graphspec("run", "chain", "--thread", "dl", "--deadline", "450ms", "--json");
    expect(stopped.status).toBe(1);
    const result = JSON.parse(stopped.stdout);
    expect(result).toMatchObject({
      status: "failed",
      error: { code: "deadline-exceeded", phase: "run" },
    });
    // Stopped part-way: which step it reached depends on the machine's speed.
    expect(result.output.done.length).toBeLessThan(3);
    const done = graphspec("resume", "--thread", "dl", "--json");
    expect(JSON.parse(done.stdout)).toMatchObject({
      status: "completed",
      output: { done: [1, 2, 3] },
    });
  });

  it("the summary of a stopped run says how to resume it", () => {
    const stopped = graphspec("run", "chain", "--thread", "dl2", "--deadline", "450ms");
    expect(stopped.stdout).toContain("[deadline-exceeded]");
    expect(stopped.stdout).toContain("resume: graphspec resume chain --thread dl2");
  });

  it("bad --deadline and --max-tokens values are usage errors", () => {
    expect(graphspec("run", "chain", "--deadline", "soon").status).toBe(2);
    const r = graphspec("run", "chain", "--max-tokens", "0");
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--max-tokens must be a whole number above 0/);
    expect(graphspec("run", "chain", "--checkpointer", "redis").stderr).toMatch(
      /memory, sqlite or postgres/,
    );
  });

  it("GRAPHSPEC_CHECKPOINTER picks the checkpointer when --checkpointer is not given", () => {
    const r = spawnSync(process.execPath, [BIN, "run", "approve", "--require-durable", "--json"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, GRAPHSPEC_CHECKPOINTER: "memory" },
    });
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: "not-durable" });
  });

  it("Ctrl-C stops the run at the next checkpoint; it resumes from there", async () => {
    const started = join(dir, "started.log");
    rmSync(started, { force: true });
    const child = spawn(process.execPath, [BIN, "run", "chain", "--thread", "int", "--json"], {
      cwd: dir,
    });
    let stdout = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    // Interrupt once the first step has started (not after a fixed time: start-up speed varies).
    while (!existsSync(started)) await new Promise((r) => setTimeout(r, 20));
    child.kill("SIGINT");
    const code = await new Promise((r) => child.on("exit", r));
    expect(code).toBe(1);
    const stopped = JSON.parse(stdout);
    expect(stopped).toMatchObject({ status: "failed", error: { code: "cancelled" } });
    expect(stopped.output.done.length).toBeLessThan(3);
    const done = graphspec("resume", "--thread", "int", "--json");
    expect(JSON.parse(done.stdout)).toMatchObject({ output: { done: [1, 2, 3] } });
  });

  it("threads show --history lists the checkpoints; the stored context is shown", () => {
    graphspec(
      "run",
      "approve",
      "--thread",
      "h1",
      "--context",
      '{"user":"ada","api_key":"sk-1234"}',
    );
    const r = graphspec("threads", "show", "h1", "--history", "--json");
    const shown = JSON.parse(r.stdout);
    expect(shown.context).toEqual({ user: "ada" });
    expect(shown.history.map((h: { step: number }) => h.step)).toEqual([0, -1]);
    expect(shown.history[0].next).toEqual(["ask"]);
    const text = graphspec("threads", "show", "h1", "--history").stdout;
    expect(text).toContain('context: {"user":"ada"}');
    expect(text).toMatch(/step +0 .* → ask/);
  });
});

describe("scripted models from the command line", () => {
  const root = join(import.meta.dirname, "..");
  const inRepo = (...args: string[]) => {
    const r = spawnSync(process.execPath, [BIN, ...args], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, GRAPHSPEC_CHECKPOINTER: "sqlite" },
    });
    return { status: r.status, result: r.stdout ? JSON.parse(r.stdout) : undefined };
  };

  it("a resume that calls no model needs no --scripts", () => {
    const scripts =
      '{"support-triage":[{"structured":{"priority":"urgent","reason":"locked out"}}]}';
    const thread = `scripted-${process.pid}`;
    const run = inRepo(
      "run",
      "support-triage",
      "--thread",
      thread,
      "--input",
      '{"ticket":"T-1"}',
      "--context",
      '{"user_id":"u-1"}',
      "--scripts",
      scripts,
      "--json",
    );
    expect(run.result).toMatchObject({ status: "interrupted" });
    const done = inRepo("resume", "--thread", thread, "--value", "true", "--json");
    expect(done.status).toBe(0);
    expect(done.result).toMatchObject({ status: "completed" });
    inRepo("threads", "delete", thread, "--json");
  });

  it("without --scripts, the model's call fails and says which script is missing", () => {
    const r = inRepo(
      "run",
      "support-triage",
      "--checkpointer",
      "memory",
      "--input",
      '{"ticket":"T-1"}',
      "--context",
      '{"user_id":"u-1"}',
      "--json",
    );
    expect(r.status).toBe(1);
    expect(r.result.error).toMatchObject({ node: "classify", phase: "node" });
    expect(r.result.error.message).toMatch(/support-triage/);
  });
});
