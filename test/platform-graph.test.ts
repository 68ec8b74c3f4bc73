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
});
