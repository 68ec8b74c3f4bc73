/** `graphspec test`: fixtures run offline, failures at the fixture's line with a diff, CI exit codes. */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startOpenAIStub } from "./support/openai-stub.js";

const ROOT = join(import.meta.dirname, "..");
const BIN = join(ROOT, "bin", "graphspec.js");
const dir = mkdtempSync(join(tmpdir(), "graphspec-cli-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));
const echoSpec = `version: 1
name: echo
state:
  messages: { type: messages }
  mood: { type: string, default: calm }
models:
  default: { model: "scripted:echo" }
nodes:
  answer: { kind: llm, prompt: "Say something" }
  ask:
    kind: interrupt
    payload: { question: "Mood?" }
    write: mood
edges:
  - { from: START, to: answer }
  - { from: answer, to: ask }
  - { from: ask, to: END }
`;
writeFileSync(join(dir, "graphs", "echo.yaml"), echoSpec);
const fixture = (name: string, text: string) =>
  writeFileSync(join(dir, "graphs", `${name}.test.yaml`), `graph: echo.yaml\n${text}`);

const graphspec = (...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, "test", ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe("graphspec test", () => {
  it("every example in graphs/ has a fixture, and they pass", () => {
    const specs = readdirSync(join(ROOT, "graphs")).filter(
      (f) => f.endsWith(".yaml") && !f.endsWith(".test.yaml"),
    );
    const fixtures = readdirSync(join(ROOT, "graphs")).filter((f) => f.endsWith(".test.yaml"));
    expect(fixtures.sort()).toEqual(specs.map((s) => s.replace(/\.yaml$/, ".test.yaml")).sort());
    const r = spawnSync(process.execPath, [BIN, "test", "--json"], { cwd: ROOT, encoding: "utf8" });
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ failed: 0, fixtureErrors: 0 });
    expect(report.passed).toBeGreaterThanOrEqual(specs.length);
    expect(r.status).toBe(0);
    // Every example's fixtures, in one process: the time grows with the examples (eight, some
    // retrying and timing out on purpose: lead-enrichment), and a shared 2-core machine is slow.
  }, 300_000);

  it("a passing fixture: a run, a resume, each compared with its expectations", () => {
    fixture(
      "pass",
      `tests:
  - name: answers, then asks the mood
    scripts: { echo: [hello] }
    expect:
      path: [answer, ask]
      interrupts: [{ node: ask, value: { question: Mood? } }]
    then:
      - resume: happy
        expect: { path: [ask], output: { mood: happy, messages: [{ type: human, content: Say something }, { type: ai, content: hello }] } }
`,
    );
    const r = graphspec("graphs/pass.test.yaml");
    expect(r.stdout).toContain("✔ answers, then asks the mood");
    expect(r.stdout).toContain("1 test: 1 passed, 0 failed");
    expect(r.status).toBe(0);
  });

  it("a failure names the fixture line of the expectation and shows a diff", () => {
    fixture(
      "fail",
      `tests:
  - name: wrong mood
    scripts: { echo: [hello] }
    then:
      - resume: happy
        expect:
          output: { mood: sad }
`,
    );
    const r = graphspec("graphs/fail.test.yaml");
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("✖ wrong mood");
    expect(r.stdout).toContain("graphs/fail.test.yaml:8:19: step 2: `output` differs");
    expect(r.stdout).toMatch(/- +"mood": "sad"/);
    expect(r.stdout).toMatch(/\+ +"mood": "happy"/);
    expect(r.stdout).toContain("1 test: 0 passed, 1 failed");
  });

  it("the default expectation is `completed` at the end, `interrupted` before a resume", () => {
    fixture("default", `tests:\n  - name: never resumed\n    scripts: { echo: [hello] }\n`);
    const r = graphspec("graphs/default.test.yaml");
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("the run is interrupted");
  });

  it("scripted answers left unused fail the test", () => {
    fixture(
      "unused",
      `tests:
  - name: too many answers
    scripts: { echo: [hello, again] }
    then: [{ resume: ok }]
`,
    );
    const r = graphspec("graphs/unused.test.yaml");
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      "graphs/unused.test.yaml:4:22: 1 scripted answer of `echo` was not used",
    );
  });

  it("a model with no answer left fails with the run's error", () => {
    fixture("empty", `tests:\n  - name: no answers\n    expect: { status: completed }\n`);
    const r = graphspec("graphs/empty.test.yaml");
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/the run failed: \[\S+\] .*echo/);
  });

  it("a broken fixture is an error at file:line:col, and no test runs", () => {
    fixture(
      "broken",
      `tests:
  - name: a
    expect: { staus: completed }
  - name: a
`,
    );
    const r = graphspec("graphs/broken.test.yaml");
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("graphs/broken.test.yaml:4:15: unknown key `staus`");
    fixture("dupe", `tests:\n  - name: a\n    scripts: { echo: [x] }\n  - name: a\n`);
    const dupe = graphspec("graphs/dupe.test.yaml");
    expect(dupe.stdout).toContain("graphs/dupe.test.yaml:5:11: a test named `a` comes before");
    fixture("nograph", "tests: [{ name: a }]\n");
    writeFileSync(join(dir, "graphs", "nograph.test.yaml"), "tests: [{ name: a }]\n");
    const missing = graphspec("graphs/nograph.test.yaml");
    expect(missing.stdout).toMatch(/nograph\.yaml, does not exist/);
  });

  it("runs every fixture under a directory; -t picks tests by name; --json is one object", () => {
    rmSync(join(dir, "graphs"), { recursive: true });
    mkdirSync(join(dir, "graphs", "more"), { recursive: true });
    writeFileSync(join(dir, "graphs", "echo.yaml"), echoSpec);
    const test = (name: string) =>
      `  - name: ${name}\n    scripts: { echo: [hi] }\n    then: [{ resume: ok, expect: { output: { mood: ok } } }]\n`;
    fixture("one", `tests:\n${test("first")}${test("second")}`);
    writeFileSync(
      join(dir, "graphs", "more", "two.test.yaml"),
      `graph: ../echo.yaml\ntests:\n${test("third")}`,
    );
    const all = JSON.parse(graphspec("--json").stdout);
    expect(all).toMatchObject({ passed: 3, failed: 0, fixtureErrors: 0 });
    expect(all.files.map((f: { file: string }) => f.file)).toEqual([
      join("graphs", "more", "two.test.yaml"),
      join("graphs", "one.test.yaml"),
    ]);
    const some = JSON.parse(graphspec("-t", "second", "--json").stdout);
    expect(some).toMatchObject({ passed: 1, failed: 0 });
    const none = graphspec("-t", "no such test");
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('no test\'s name contains "no such test"');
  });

  it("no fixtures is a usage error", () => {
    const r = graphspec("nowhere");
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/no test fixtures/);
  });
});

describe("graphspec test never reaches the network", () => {
  const offline = join(dir, "offline");
  mkdirSync(join(offline, "graphs"), { recursive: true });
  writeFileSync(join(offline, "package.json"), "{}");
  writeFileSync(
    join(offline, "graphs", "real.yaml"),
    `version: 1
name: real
state:
  messages: { type: messages }
  summary: { type: string, default: "" }
models:
  default: { model: "openai:gpt-4o-mini", max_retries: 0 }
  writer: { model: "openai:gpt-4o", max_retries: 0 }
nodes:
  answer: { kind: llm, prompt: "Say something" }
  sum: { kind: llm, model: writer, prompt: "Sum up", write: { summary: "\${{ output.text }}" } }
edges:
  - { from: START, to: answer }
  - { from: answer, to: sum }
  - { from: sum, to: END }
`,
  );
  /** `graphspec test` in a child process, with the OpenAI client pointed at a stub that records requests. */
  const testOffline = async (fixtureText: string) => {
    writeFileSync(join(offline, "graphs", "real.test.yaml"), fixtureText);
    const stub = await startOpenAIStub(["from the network", "from the network"]);
    try {
      const child = spawn(process.execPath, [BIN, "test", "--json"], {
        cwd: offline,
        env: {
          ...process.env,
          NO_COLOR: "1",
          OPENAI_BASE_URL: stub.url,
          OPENAI_API_KEY: "sk-test",
        },
      });
      let stdout = "";
      child.stdout.on("data", (d) => {
        stdout += d;
      });
      const status = await new Promise<number | null>((r) => child.on("close", r));
      return { status, report: JSON.parse(stdout), requests: stub.requests.length };
    } finally {
      await stub.close();
    }
  };

  it("a fixture's `scripts` keyed by a model's name stands in for that model, whatever its provider", async () => {
    const r = await testOffline(`tests:
  - name: both models scripted by their names
    scripts:
      default: [hello]
      writer: [a summary]
    expect:
      output: { summary: a summary }
`);
    expect(r.requests).toBe(0);
    expect(r.report).toMatchObject({ passed: 1, failed: 0 });
    expect(r.status).toBe(0);
  });

  it("a model the test does not script fails the test, naming it and how to script it; no request leaves", async () => {
    const r = await testOffline(`tests:
  - name: the writer is not scripted
    scripts:
      default: [hello]
`);
    expect(r.requests).toBe(0);
    expect(r.status).toBe(1);
    const failure = r.report.files[0].results[0].failure;
    expect(failure.message).toMatch(/model `writer` \(`openai:gpt-4o`\)/);
    expect(failure.message).toMatch(/never reaches the network/);
    expect(failure.message).toMatch(/scripts: \{ writer: \[…\] \}/);
  });
});

describe("a fixture takes a run's choices: model, tool allowlist, recursion limit, breakpoints", () => {
  const chooser = join(dir, "chooser");
  mkdirSync(join(chooser, "graphs"), { recursive: true });
  writeFileSync(join(chooser, "package.json"), "{}");
  writeFileSync(
    join(chooser, "graphs", "tools.mjs"),
    "export const lookup = ({ id }) => `ticket ${id} is open`;\nexport const notify = ({ text }) => `sent: ${text}`;\n",
  );
  writeFileSync(
    join(chooser, "graphs", "desk.yaml"),
    `version: 1
name: desk
state:
  messages: { type: messages }
models:
  default: { model: "openai:gpt-4o-mini", allow: [large] }
  large: { model: "openai:gpt-4o" }
tools:
  lookup:
    module: ./tools.mjs
    description: Look a ticket up.
    schema: { type: object, properties: { id: { type: string } }, required: [id] }
  notify:
    module: ./tools.mjs
    description: Tell the customer.
    schema: { type: object, properties: { text: { type: string } }, required: [text] }
nodes:
  desk: { kind: agent, tools: [lookup, notify], system: Help. }
edges:
  - { from: START, to: desk }
  - { from: desk, to: END }
`,
  );
  const run = (text: string) => {
    writeFileSync(join(chooser, "graphs", "desk.test.yaml"), text);
    const r = spawnSync(process.execPath, [BIN, "test", "--json"], {
      cwd: chooser,
      encoding: "utf8",
      // No key, no endpoint: a test that reached for the provider would fail.
      env: { PATH: process.env.PATH, NO_COLOR: "1" },
    });
    return { status: r.status, report: JSON.parse(r.stdout) };
  };

  it("runs with the chosen model, its script standing in for it; a model no allow names fails", () => {
    const r = run(`tests:
  - name: the run chooses the large model
    model: large
    scripts: { large: [from the large model] }
    expect:
      output: { messages: [{ type: ai, content: from the large model }] }
  - name: a model outside the allow list is refused before any call
    model: gpt-5
    expect:
      status: failed
      error: { code: model-not-allowed, field: model }
`);
    expect(r.report.files[0].results.map((t: { failure?: unknown }) => t.failure)).toEqual([
      undefined,
      undefined,
    ]);
    expect(r.status).toBe(0);
  });

  it("a denied call is seen in `expect.denied` and in the transcript; a wrong step key is a fixture error at its line", () => {
    const r = run(`tests:
  - name: the allowlist denies notify, the model recovers
    input: { messages: [{ role: user, content: tell them } ] }
    allow_tools: [lookup]
    interrupt_after: [desk]
    scripts:
      default:
        - tool_calls: [{ name: notify, args: { text: hi } }]
        - tool_calls: [{ name: lookup, args: { id: T-1 } }]
        - I could only look the ticket up.
        - tool_calls: [{ name: notify, args: { text: again } }]
        - Still not allowed.
    expect:
      denied: [notify]
      next: []
      output:
        messages:
          - {}
          - { type: ai }
          - { type: tool, status: error, artifact: { errorCode: policy_denied, allowedTools: [lookup] } }
          - { type: ai }
          - { type: tool, content: ticket T-1 is open }
          - { type: ai, content: I could only look the ticket up. }
    then:
      - input: null
        expect: { denied: [notify] }
`);
    // \`input\` is not a step key: the fixture error is at its line.
    expect(r.report.fixtureErrors).toBe(1);
    expect(r.report.files[0].problems[0]).toMatchObject({ line: 25, column: 9, rule: "fixture" });
    const ok = run(`tests:
  - name: the allowlist denies notify, the model recovers
    input: { messages: [{ role: user, content: tell them } ] }
    allow_tools: [lookup]
    scripts:
      default:
        - tool_calls: [{ name: notify, args: { text: hi } }]
        - tool_calls: [{ name: lookup, args: { id: T-1 } }]
        - I could only look the ticket up.
    expect:
      denied: [notify]
      output:
        messages:
          - {}
          - { type: ai }
          - { type: tool, status: error, artifact: { errorCode: policy_denied, allowedTools: [lookup] } }
          - { type: ai }
          - { type: tool, content: ticket T-1 is open }
          - { type: ai, content: I could only look the ticket up. }
  - name: without an allowlist nothing is denied
    scripts:
      default: [{ tool_calls: [{ name: notify, args: { text: hi } }] }, done]
    expect: { denied: [] }
`);
    expect(ok.report.files[0].results.map((t: { failure?: unknown }) => t.failure)).toEqual([
      undefined,
      undefined,
    ]);
    expect(ok.status).toBe(0);
  });

  it("a step's breakpoints and recursion limit; an unexpected refusal is reported at the choice", () => {
    const r = run(`tests:
  - name: paused before the agent, then resumed with a model of its own choosing
    interrupt_before: [desk]
    scripts: { large: [large answers] }
    expect: { next: [desk], path: [] }
    then:
      - model: large
        expect: { output: { messages: [{ content: large answers }] } }
  - name: one step is not enough
    recursion_limit: 1
    scripts: { default: [{ tool_calls: [{ name: lookup, args: { id: T-1 } }] }] }
    expect: { status: failed, error: { code: recursion-limit } }
  - name: a breakpoint at a node the graph does not have
    interrupt_after: [dsk]
`);
    const results = r.report.files[0].results;
    expect(results[0].failure).toBeUndefined();
    expect(results[1].failure).toBeUndefined();
    expect(results[2].failure.message).toMatch(/\[invalid-run-option\].*`dsk`/);
    // Said at the test's `interrupt_after:`, not at an expectation it does not have.
    expect(results[2].location).toMatchObject({ line: 14, column: 22 });
    expect(r.status).toBe(1);
  });
});
