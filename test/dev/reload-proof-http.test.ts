/**
 * The reload proof of issue 12 as users see it: `graphspec dev` (the built CLI, a process of its
 * own) and the official `@langchain/langgraph-sdk` Client. 50 concurrent runs while the spec is
 * rewritten 20 times, valid and invalid versions alternating — invalid by a semantic error and by
 * YAML that does not parse. No run fails because of the reload, each completes on one version
 * (its marks), and the assistant's schemas describe the version that serves, never a refused file.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, expect, it } from "vitest";
import { BIN, project, until } from "./project.js";

const p = project("proof-http");
let child: ChildProcess | undefined;
afterAll(() => {
  child?.kill("SIGKILL");
  p.remove();
});

/**
 * Each node of a run appends its version's mark; the state declares a field named for the version,
 * so the assistant's schemas show which version they describe.
 */
const spec = (mark: string, broken?: "semantic" | "yaml") => `version: 1
name: marking
state:
  marks: { type: array, items: { type: string }, reducer: append, default: [] }
  field_${mark}: { type: string }
nodes:
  first: { kind: set, values: { marks: [${mark}] } }
  slow: { kind: function, module: ./slow.mjs, writes: [marks] }
  last: { kind: set, values: { marks: [${mark}] } }
edges:
  - { from: START, to: first }
  - { from: first, to: slow }
  - { from: slow, to: last }
  - { from: last, to: ${broken === "semantic" ? "lats" : "END"} ${broken === "yaml" ? "" : "}"}
`;

it("50 concurrent SDK runs against `graphspec dev` while the spec is rewritten 20 times; the assistant follows the served version", async () => {
  p.write(
    "graphs/slow.mjs",
    "export default async () => {\n  await new Promise((r) => setTimeout(r, 15));\n  return { marks: ['slow'] };\n};\n",
  );
  p.write("graphs/marking.yaml", spec("v0"));
  child = spawn(process.execPath, [BIN, "dev", "--port", "0"], { cwd: p.root });
  let out = "";
  let err = "";
  child.stdout?.on("data", (b) => {
    out += b;
  });
  child.stderr?.on("data", (b) => {
    err += b;
  });
  await until(() => /http:\/\/127\.0\.0\.1:\d+/.test(out));
  const url = /http:\/\/127\.0\.0\.1:\d+/.exec(out)![0];
  const client = new Client({ apiUrl: url, callerOptions: { maxRetries: 0 } });
  const count = (word: string) => err.split(`${word} graphs/marking.yaml`).length - 1;

  /** The fields of the served version the assistant describes (`field_v<edit>`). */
  const described = async () => {
    const [found] = await client.assistants.search({ graphId: "marking" });
    const schemas = await client.assistants.getSchemas(found!.assistant_id);
    const state = schemas.state_schema as { properties: Record<string, unknown> };
    return Object.keys(state.properties).filter((k) => k.startsWith("field_"));
  };
  expect(await described()).toEqual(["field_v0"]);

  const runs: Promise<unknown>[] = [];
  const start = (n: number) => {
    for (let i = 0; i < n; i++)
      runs.push(client.runs.wait(randomUUID(), "marking", { input: {}, ifNotExists: "create" }));
  };
  start(5);
  let served = "v0";
  for (let edit = 1; edit <= 20; edit++) {
    const valid = edit % 2 === 0;
    const before = { reloaded: count("reloaded"), refused: count("refused") };
    p.write(
      "graphs/marking.yaml",
      spec(`v${edit}`, valid ? undefined : edit % 4 === 1 ? "semantic" : "yaml"),
    );
    start(edit <= 5 ? 3 : 2);
    await until(() =>
      valid ? count("reloaded") > before.reloaded : count("refused") > before.refused,
    ).catch((e) => {
      throw new Error(`edit ${edit}: no ${valid ? "reload" : "refusal"}; stderr:\n${err}`, {
        cause: e,
      });
    });
    if (valid) served = `v${edit}`;
    // Refused or not, the assistant is the version that serves.
    expect(await described(), `after edit ${edit}`).toEqual([`field_${served}`]);
  }
  expect(runs).toHaveLength(50);
  const results = (await Promise.allSettled(runs)).map((r) =>
    r.status === "fulfilled" ? (r.value as { marks?: string[] }) : { failed: String(r.reason) },
  );
  expect(results.filter((r) => "failed" in r || !r.marks)).toEqual([]);
  const seen = new Set<string>();
  for (const r of results as { marks: string[] }[]) {
    const [first, middle, last] = r.marks;
    expect(middle).toBe("slow");
    expect(last).toBe(first);
    seen.add(first!);
  }
  // Only valid versions ran (v0, v2, v4, …), and the runs spread over several of them.
  for (const mark of seen) expect(Number(mark.slice(1)) % 2).toBe(0);
  expect(seen.size).toBeGreaterThan(3);
  expect(count("refused")).toBe(10);
  expect(err).toContain("reloaded graphs/marking.yaml (version 11,");

  const exited = new Promise<number | null>((r) => child?.once("exit", (code) => r(code)));
  child.kill("SIGTERM");
  expect(await exited).toBe(0);
}, 120_000);
