/**
 * One way to stand in for a real model (docs/testing.md, "Standing in for a model"): a fixture's
 * scripts — keyed by the model's entry name or its `provider:name` — run a graph offline from
 * `graphspec run --scripts`, `graphspec dev --scripts` (the official SDK against it; the page's
 * run is test/web/page-fixture-scripts.e2e.test.ts), and the
 * package's `createExecutor({ scripts })` and `compile(path, { scripts })`. No provider key is set
 * and the provider URL is a closed port: a model that reached for the network would fail.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { graphspecIn, ROOT } from "./support/cli.js";
import { type DevServer, startDevServer } from "./support/dev-server.js";

/** Nothing answers there: a request that leaves fails at once, never hangs. */
const NO_PROVIDER = {
  OPENAI_API_KEY: "",
  ANTHROPIC_API_KEY: "",
  OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
};
const graphspec = graphspecIn(ROOT, NO_PROVIDER);

interface FixtureTest {
  name: string;
  input?: Record<string, unknown>;
  context?: Record<string, unknown>;
  expect?: { status?: string; output?: Record<string, unknown> };
}
const fixtureOf = (file: string): { context?: Record<string, unknown>; tests: FixtureTest[] } =>
  parse(readFileSync(join(ROOT, "graphs", file), "utf8"));

// Every example graph with a fixture: a new example is covered by adding its fixture.
const examples = readdirSync(join(ROOT, "graphs")).filter((f) => f.endsWith(".test.yaml"));

describe("graphspec run --scripts @fixture", () => {
  it("finds the example graphs", () => expect(examples.length).toBeGreaterThanOrEqual(8));

  it.each(examples)("runs %s's graph offline with its first test's scripts", (file) => {
    const fixture = fixtureOf(file);
    const test = fixture.tests[0]!;
    const context = { ...fixture.context, ...test.context };
    const args = ["run", `graphs/${file.replace(".test.", ".")}`, "--checkpointer", "memory"];
    args.push("--json", "--input", JSON.stringify(test.input ?? {}));
    args.push("--scripts", `@graphs/${file}`);
    if (Object.keys(context).length) args.push("--context", JSON.stringify(context));
    const r = graphspec(...args);
    const result = JSON.parse(r.stdout) as { status: string; output: unknown; error?: unknown };
    expect(result.error, r.stderr).toBeUndefined();
    // A test that goes on with `then:` may leave its first expectation's status out (interrupted).
    if (test.expect?.status) expect(result.status).toBe(test.expect.status);
    else expect(result.status).not.toBe("failed");
    if (test.expect?.output) expect(result.output).toMatchObject(test.expect.output);
  });

  it("takes a test by name after #, and its real model answers from it", () => {
    const r = graphspec(
      "run",
      "graphs/ticket-summary.yaml",
      "--checkpointer=memory",
      "--json",
      "--model=openai:gpt-4o",
      '--input={"ticket_id":"T-1002"}',
      "--scripts=@graphs/ticket-summary.test.yaml#a run chooses the large model by its provider name",
    );
    expect(JSON.parse(r.stdout).output.summary, r.stderr).toBe("Lin's invoice is wrong.");
  });

  it("fails at once, naming the model and how to script it, when a real model has no script", () => {
    const r = graphspec(
      "run",
      "graphs/ticket-summary.yaml",
      "--checkpointer=memory",
      "--json",
      '--input={"ticket_id":"T-1001"}',
      '--scripts={"large":["not this one"]}',
    );
    const { status, error } = JSON.parse(r.stdout);
    expect(status).toBe("failed");
    expect(error.message).toContain("model `default` (`openai:gpt-4o-mini`) has no script");
    expect(error.hint).toContain('"openai:gpt-4o-mini"');
  });

  it("refuses a test the fixture does not have, listing those it has", () => {
    const r = graphspec(
      "run",
      "graphs/reflection.yaml",
      "--scripts=@graphs/reflection.test.yaml#99",
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("graphs/reflection.test.yaml has no test `99`");
    expect(r.stderr).toContain("1. ");
  });
});

describe("graphspec dev --scripts @fixture, through the official SDK", () => {
  const servers: DevServer[] = [];
  afterAll(() => Promise.all(servers.map((s) => s.stop())));
  const devWith = async (fixture: string) => {
    const server = await startDevServer({
      repoGraphs: true,
      args: ["--scripts", `@graphs/${fixture}`],
      env: NO_PROVIDER,
    });
    servers.push(server);
    return new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
  };

  it.each(examples)("runs %s's graph with its first test's scripts", async (file) => {
    const client = await devWith(file);
    const fixture = fixtureOf(file);
    const test = fixture.tests[0]!;
    const context = { ...fixture.context, ...test.context };
    const thread = await client.threads.create();
    const values = await client.runs.wait(thread.thread_id, file.replace(".test.yaml", ""), {
      input: test.input ?? {},
      ...(Object.keys(context).length ? { context } : {}),
    });
    const state = await client.threads.get(thread.thread_id);
    expect(values, JSON.stringify(values)).not.toHaveProperty("__error__");
    const threadStatus: Record<string, string> = { completed: "idle", interrupted: "interrupted" };
    const want = threadStatus[test.expect?.status ?? ""];
    if (want) expect(state.status).toBe(want);
    else expect(state.status).not.toBe("error");
    if (test.expect?.output) expect(values).toMatchObject(test.expect.output);
  });
});

/** Runs an ES module script in the project, where `graphspec` resolves to the package itself. */
function script(source: string): unknown {
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", source], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, ...NO_PROVIDER },
  });
  expect(r.stderr, r.stderr).toBe("");
  return JSON.parse(r.stdout);
}

describe("the package entry", () => {
  it("createExecutor({ scripts }): the entry name wins, the model string answers the rest", () => {
    const out = script(`
      import { createExecutor } from "graphspec";
      const exec = createExecutor({
        dir: "graphs",
        checkpointer: "memory",
        scripts: {
          "openai:gpt-4o-mini": ["A haiku."],
          critic: [{ structured: { score: 9, issues: [], verdict: "accept" } }],
        },
      });
      const r = await exec.run("reflection", { input: { task: "A release note." } });
      await exec.close();
      console.log(JSON.stringify({ status: r.status, output: r.output, error: r.error }));
    `);
    expect(out).toMatchObject({
      status: "completed",
      output: { draft: "A haiku.", outcome: "accepted" },
    });
  });

  it("compile(path, { scripts }): a real model answers from its script", () => {
    const out = script(`
      import { compile } from "graphspec";
      const graph = await compile("graphs/ticket-summary.yaml", {
        scripts: { default: ["Ada cannot log in."] },
      });
      const values = await graph.invoke({ ticket_id: "T-1001" });
      console.log(JSON.stringify(values));
    `);
    expect(out).toMatchObject({ summary: "Ada cannot log in." });
  });
});
