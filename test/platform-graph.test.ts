/**
 * `platformGraph`, what the entry module of `graphspec export langgraph` calls: a spec compiled
 * once into a factory the LangGraph server calls per request, each call a graph of its own (the
 * server sets its checkpointer on the graph it gets: a stateless run sets none).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { MemorySaver } from "@langchain/langgraph";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { platformGraph } from "../src/index.js";
import { MINIMAL_SPEC } from "./helpers.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "graphspec-platform-graph-"));
  writeFileSync(join(dir, "package.json"), "{}\n");
  writeFileSync(join(dir, "minimal.yaml"), MINIMAL_SPEC);
  writeFileSync(
    join(dir, "scripted.yaml"),
    `version: 1
name: scripted
state:
  messages: { type: messages }
models:
  default: { model: "scripted:s" }
nodes:
  answer: { kind: llm, prompt: Answer. }
edges:
  - { from: START, to: answer }
  - { from: answer, to: END }
`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  delete process.env.GRAPHSPEC_SCRIPTS;
});

describe("platformGraph", () => {
  it("compiles without a checkpointer; each call gives its own graph, so one's checkpointer is not another's", async () => {
    const factory = await platformGraph(pathToFileURL(join(dir, "minimal.yaml")));
    const a = factory({ configurable: {} });
    const b = factory();
    expect(a).not.toBe(b);
    expect(a.checkpointer).toBeUndefined();
    a.checkpointer = new MemorySaver();
    expect(b.checkpointer).toBeUndefined();
    expect(await b.invoke({})).toEqual({ greeting: "hello" });
  });

  it("a GRAPHSPEC_SCRIPTS that is not JSON is an error naming it, with the form it takes", async () => {
    process.env.GRAPHSPEC_SCRIPTS = "{not json";
    await expect(platformGraph(join(dir, "scripted.yaml"))).rejects.toThrow(
      /GRAPHSPEC_SCRIPTS is not JSON .*@file/,
    );
  });

  it("reads GRAPHSPEC_SCRIPTS from @file", async () => {
    writeFileSync(join(dir, "scripts.json"), JSON.stringify({ s: ["from the file"] }));
    process.env.GRAPHSPEC_SCRIPTS = `@${join(dir, "scripts.json")}`;
    const factory = await platformGraph(join(dir, "scripted.yaml"));
    const { messages } = await factory().invoke({ messages: [{ role: "user", content: "hi" }] });
    expect(messages.at(-1).content).toBe("from the file");
  });

  it("a run's error is named by its code, its hint ends the message, the spec named relative to the project", async () => {
    writeFileSync(
      join(dir, "routed.yaml"),
      `version: 1
name: routed
state:
  count: { type: integer }
  log: { type: array, items: { type: string }, reducer: append, default: [] }
nodes:
  a: { kind: set, values: { log: a } }
edges:
  - { from: START, to: a }
  - from: a
    route:
      - { when: "state.count > 1", to: END }
      - { default: END }
`,
    );
    const graph = (await platformGraph(join(dir, "routed.yaml")))();
    const e = await graph.invoke({ log: ["x"] }).catch((err: unknown) => err);
    expect(e).toMatchObject({
      name: "expression",
      code: "expression",
      message:
        "an edge: the expression at routed.yaml:12:24 failed: no such key: count\nhint: guard reads of channels that may be empty with `has(state.name)`",
    });
    // Through streamEvents, as the official server runs a graph.
    const events = await graph.streamEvents({ log: ["x"] }, { version: "v3" } as never);
    const streamed = await (async () => {
      for await (const _ of events as AsyncIterable<unknown>);
    })().catch((err: unknown) => err);
    expect(streamed).toMatchObject({ name: "expression" });
  });

  it("a run its caller cancelled fails with LangGraph's own error", async () => {
    const graph = (await platformGraph(join(dir, "minimal.yaml")))();
    const e = await graph.invoke({}, { signal: AbortSignal.abort() }).catch((err: unknown) => err);
    expect((e as Error).name).toBe("AbortError");
  });
});
