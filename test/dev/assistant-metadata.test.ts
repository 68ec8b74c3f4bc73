/**
 * `graphspec dev` (the built CLI) through the official SDK: an assistant's `version` is the version
 * that serves, `updated_at` when it came in, and `metadata.graphspec` the refused change sitting in
 * the file — an invalid save shows its diagnostics and the old version; the fix, a new version.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { type Assistant, Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GraphspecMetadata } from "../../src/server/assistant-metadata.js";
import { BIN, project, until } from "./project.js";

const p = project("assistant-metadata");
let child: ChildProcess | undefined;
let client: Client;
let stderr = "";

const spec = (last: string) => `version: 1
name: greeting
description: Says hello.
state:
  text: { type: string, default: "" }
nodes:
  hello: { kind: set, values: { text: hello } }
edges:
  - { from: START, to: hello }
  - { from: hello, to: ${last} }
`;

beforeAll(async () => {
  p.write("graphs/greeting.yaml", spec("END"));
  child = spawn(process.execPath, [BIN, "dev", "--port", "0", "--checkpointer", "memory"], {
    cwd: p.root,
  });
  let out = "";
  child.stdout?.on("data", (b) => {
    out += b;
  });
  child.stderr?.on("data", (b) => {
    stderr += b;
  });
  await until(() => /http:\/\/127\.0\.0\.1:\d+/.test(out));
  const url = /http:\/\/127\.0\.0\.1:\d+/.exec(out)![0];
  client = new Client({ apiUrl: url, callerOptions: { maxRetries: 0 } });
});
afterAll(() => {
  child?.kill("SIGKILL");
  p.remove();
});

const assistants = () => client.assistants.search({ limit: 100 });
const named = async (name: string) => (await assistants()).find((a) => a.graph_id === name);
const meta = (a: Assistant | undefined) =>
  (a?.metadata as { graphspec?: GraphspecMetadata } | undefined)?.graphspec;

describe("the assistant in graphspec dev", () => {
  it("an invalid save shows its diagnostics and the old version; the fix, a new version and none", async () => {
    const first = await named("greeting");
    expect(first).toMatchObject({ version: 1, description: "Says hello." });
    expect(meta(first)).toEqual({
      models: {},
      reducers: {},
      file: "graphs/greeting.yaml",
      diagnostics: [],
      refused: false,
      served_version: 1,
      // No fixture or recording for it: nothing to stand in; a run reaches its models' providers.
      stand_ins: [],
      without_stand_in: "provider",
    });
    expect(Date.parse(first!.updated_at)).toBeGreaterThan(0);

    p.write("graphs/greeting.yaml", spec("hellp"));
    await until(async () => meta(await named("greeting"))?.refused);
    const refused = await named("greeting");
    expect(refused).toMatchObject({ version: 1, updated_at: first!.updated_at });
    expect(meta(refused)).toMatchObject({ refused: true, served_version: 1 });
    expect(meta(refused)?.diagnostics).toEqual([
      expect.objectContaining({
        file: "graphs/greeting.yaml",
        line: 10,
        col: expect.any(Number),
        severity: "error",
        rule: "unknown-node",
        message: expect.stringContaining("hellp"),
        hint: expect.stringContaining("hello"),
      }),
    ]);

    p.write("graphs/greeting.yaml", spec("END"));
    await until(async () => (await named("greeting"))?.version === 2);
    const fixed = await named("greeting");
    expect(meta(fixed)).toEqual({
      models: {},
      reducers: {},
      file: "graphs/greeting.yaml",
      diagnostics: [],
      refused: false,
      served_version: 2,
      // No fixture or recording for it: nothing to stand in; a run reaches its models' providers.
      stand_ins: [],
      without_stand_in: "provider",
    });
    expect(Date.parse(fixed!.updated_at)).toBeGreaterThan(Date.parse(first!.updated_at));
  });

  it("a file that does not parse as YAML is listed under its stem, with its diagnostics only", async () => {
    p.write("graphs/broken.yaml", "version: 1\nname: [unclosed\n");
    await until(async () => meta(await named("broken"))?.refused);
    const broken = await named("broken");
    expect(broken).toMatchObject({ name: "broken", version: 0 });
    expect(meta(broken)).toMatchObject({
      file: "graphs/broken.yaml",
      refused: true,
      served_version: null,
    });
    expect(meta(broken)?.diagnostics[0]).toMatchObject({
      file: "graphs/broken.yaml",
      line: expect.any(Number),
      severity: "error",
    });
    const drawing = await client.assistants.getGraph(broken!.assistant_id);
    expect(drawing.nodes.map((n) => n.id)).toEqual(["__start__", "__end__"]);
    // The other graph is untouched.
    expect((await named("greeting"))?.version).toBe(2);
  });

  it("a version that serves with warnings carries them, not refused; the terminal prints them", async () => {
    const unguarded = spec("END").replace(
      "  - { from: hello, to: END }\n",
      `  - from: hello\n    route:\n      - { when: "state.text == 'hello'", to: END }\n`,
    );
    p.write("graphs/greeting.yaml", unguarded);
    await until(async () => (await named("greeting"))?.version === 3);
    const warned = await named("greeting");
    expect(meta(warned)).toMatchObject({ refused: false, served_version: 3 });
    expect(meta(warned)?.diagnostics).toEqual([
      expect.objectContaining({
        file: "graphs/greeting.yaml",
        line: 11,
        severity: "warning",
        rule: "route-no-default",
      }),
    ]);
    await until(() => stderr.includes("[route-no-default]"));
    expect(stderr).toMatch(/graphs\/greeting\.yaml:11:\d+: warning: .*\[route-no-default\]/);
  });
});
