/**
 * `graphspec graphs`: the project's graph catalog, as the built CLI prints it — the very graphs,
 * assistant ids and JSON Schemas `graphspec serve` offers (checked against a running server through
 * the official SDK), with a graph that does not validate listed with its errors, not dropped.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, describe, expect, it } from "vitest";
import { graphspecIn } from "./support/cli.js";

const ROOT = join(import.meta.dirname, "..");
const BIN = join(ROOT, "bin", "graphspec.js");
const dir = mkdtempSync(join(tmpdir(), "graphspec-cli-graphs-"));
const started: ChildProcess[] = [];
afterAll(() => {
  for (const p of started) if (p.exitCode === null && p.signalCode === null) p.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const graphspec = (cwd: string, ...args: string[]) => graphspecIn(cwd)("graphs", ...args);

const GOOD = `version: 1
name: greeter
description: Says hello.
state:
  messages: { type: messages }
  who: { type: string }
  greeting: { type: string }
context:
  user_id: { type: string, required: true }
input: [who]
output: [greeting]
models:
  default: { model: "scripted:greeter" }
nodes:
  greet: { kind: set, values: { greeting: "hello" } }
edges:
  - { from: START, to: greet }
  - { from: greet, to: END }
`;

describe("graphspec graphs", () => {
  it("lists the repository's graphs as the server offers them: ids and schemas equal", async () => {
    const r = graphspec(ROOT, "--json");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const catalog = JSON.parse(r.stdout);
    expect(catalog.format).toBe(1);
    const names = catalog.graphs.map((g: { name: string }) => g.name);
    expect(names).toContain("support-triage");
    // Fixtures and the supervisor's subgraphs (graphs/supervisor/) are not graphs of their own.
    expect(
      catalog.graphs.every((g: { file: string }) => /^graphs\/[^/]+\.yaml$/.test(g.file)),
    ).toBe(true);
    expect(catalog.graphs.some((g: { file: string }) => g.file.endsWith(".test.yaml"))).toBe(false);

    const proc = spawn(
      process.execPath,
      [BIN, "dev", "graphs", "--port", "0", "--checkpointer", "memory"],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
    );
    started.push(proc);
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      proc.stdout!.on("data", (d) => {
        out += d;
        if (out.includes("\n")) resolve(out.split("\n")[0]!);
      });
      proc.once("exit", (code) => reject(new Error(`dev exited ${code}`)));
    });
    try {
      const client = new Client({ apiUrl: url, callerOptions: { maxRetries: 0 } });
      const assistants = await client.assistants.search({ limit: 100 });
      expect(assistants.map((a) => a.graph_id).sort()).toEqual([...names].sort());
      for (const g of catalog.graphs) {
        const assistant = assistants.find((a) => a.graph_id === g.name)!;
        expect(assistant.assistant_id).toBe(g.assistant_id);
        expect(assistant.description ?? null).toBe(g.description);
        expect(g.models).toEqual(
          (assistant.metadata as { graphspec: { models: unknown } }).graphspec.models,
        );
        const schemas = await client.assistants.getSchemas(g.assistant_id);
        expect(g.input_schema).toEqual(schemas.input_schema);
        expect(g.output_schema).toEqual(schemas.output_schema);
        expect(g.state_schema).toEqual(schemas.state_schema);
        expect(g.context_schema).toEqual(schemas.context_schema);
      }
    } finally {
      proc.kill("SIGTERM");
    }
  }, 60_000);

  it("lists a broken graph with its errors (exit 1), and a file that does not parse by its stem", () => {
    const project = join(dir, "broken");
    mkdirSync(join(project, "graphs", "sub"), { recursive: true });
    writeFileSync(join(project, "package.json"), "{}");
    writeFileSync(join(project, "graphs", "greeter.yaml"), GOOD);
    writeFileSync(join(project, "graphs", "greeter.test.yaml"), "graph: greeter.yaml\ntests: []\n");
    writeFileSync(join(project, "graphs", "sub", "child.yaml"), GOOD.replace("greeter", "child"));
    writeFileSync(
      join(project, "graphs", "lost.yaml"),
      GOOD.replace("name: greeter", "name: lost").replace("to: greet }\n", "to: gret }\n"),
    );
    writeFileSync(join(project, "graphs", "torn.yaml"), "version: 1\nname: [torn\n");
    writeFileSync(join(project, "graphs", "catalog.yaml"), "models:\n  m: { model: scripted:m }\n");

    const json = graphspec(project, "--json");
    expect(json.status).toBe(1);
    const { graphs } = JSON.parse(json.stdout);
    expect(graphs.map((g: { name: string }) => g.name)).toEqual(["greeter", "lost", "torn"]);
    const [greeter, lost, torn] = graphs;
    expect(greeter).toMatchObject({
      file: "graphs/greeter.yaml",
      description: "Says hello.",
      valid: true,
      errors: 0,
      models: { default: { model: "scripted:greeter" } },
      diagnostics: [],
      input_schema: { type: "object", properties: { who: { type: "string" } } },
      output_schema: { type: "object", properties: { greeting: { type: "string" } } },
      context_schema: { required: ["user_id"] },
    });
    expect(lost).toMatchObject({ valid: false, file: "graphs/lost.yaml", input_schema: null });
    expect(lost.errors).toBeGreaterThan(0);
    expect(lost.diagnostics[0]).toMatchObject({ file: "graphs/lost.yaml", severity: "error" });
    expect(lost.diagnostics.map((d: { message: string }) => d.message).join("\n")).toContain(
      "gret",
    );
    expect(torn).toMatchObject({ name: "torn", valid: false, description: null });
    expect(torn.diagnostics[0]).toMatchObject({ file: "graphs/torn.yaml", severity: "error" });

    const text = graphspec(project);
    expect(text.status).toBe(1);
    expect(text.stdout).toMatch(/^NAME +FILE +STATUS +DESCRIPTION$/m);
    expect(text.stdout).toMatch(/^greeter +graphs\/greeter\.yaml +✔ valid +Says hello\.$/m);
    expect(text.stdout).toMatch(/^lost +graphs\/lost\.yaml +✖ \d+ errors?/m);
    expect(text.stdout).toMatch(/^ {2}graphs\/lost\.yaml:\d+:\d+: .*gret/m);
  });

  it("a folder with no graphs is a usage error that names it (exit 2)", () => {
    const empty = join(dir, "empty");
    mkdirSync(join(empty, "graphs"), { recursive: true });
    writeFileSync(join(empty, "package.json"), "{}");
    const r = graphspec(empty);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("no graphs in graphs");
    expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/);
    const missing = graphspec(empty, "agents");
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("agents does not exist");
  });

  it("several folders: each folder's graphs, in the order given", () => {
    const project = join(dir, "two");
    mkdirSync(join(project, "a"), { recursive: true });
    mkdirSync(join(project, "b"), { recursive: true });
    writeFileSync(join(project, "package.json"), "{}");
    writeFileSync(join(project, "b", "one.yaml"), GOOD.replace("greeter", "one"));
    writeFileSync(join(project, "a", "two.yaml"), GOOD.replace("greeter", "two"));
    const r = graphspec(project, "b", "a", "--json");
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).graphs.map((g: { file: string }) => g.file)).toEqual([
      "b/one.yaml",
      "a/two.yaml",
    ]);
  });
});
