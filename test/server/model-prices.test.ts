/**
 * `models.<name>.price` reaches a client as the assistant's `metadata.graphspec.models` (what
 * graphspec dev's page prices a run's usage with), with nothing else of the model's declaration;
 * and a run's model calls name their model (`ls_model_name`) in the stream so each can be priced.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, folderCatalog, type RunningServer, startServer } from "../../src/index.js";
import { collect } from "./harness.js";

const SPEC = `version: 1
name: priced
state:
  messages: { type: messages }
models:
  default: { model: "scripted:priced", price: { input: 0.15, output: 0.6 } }
  other: { model: "openai:gpt-4o-mini", api_key: "sk-not-for-clients", base_url: "http://127.0.0.1:9" }
nodes:
  answer: { kind: llm, prompt: Hello }
edges:
  - { from: START, to: answer }
  - { from: answer, to: END }
`;

let dir: string;
let server: RunningServer;
let client: Client;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "graphspec-prices-"));
  writeFileSync(join(dir, "priced.yaml"), SPEC);
  const exec = createExecutor({
    dir,
    checkpointer: "memory",
    scripts: { priced: [{ text: "Hi there.", usage: { input_tokens: 12, output_tokens: 3 } }] },
  });
  server = await startServer({ exec, graphs: await folderCatalog(dir), auth: undefined, port: 0 });
  client = new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
});
afterAll(async () => {
  await server?.close(1000);
  rmSync(dir, { recursive: true, force: true });
});

describe("model prices over the API", () => {
  it("are in the assistant's metadata, without the models' other keys", async () => {
    const assistant = await client.assistants.get("priced");
    expect(assistant.metadata).toEqual({
      created_by: "system",
      graphspec: {
        models: {
          default: { model: "scripted:priced", price: { input: 0.15, output: 0.6 } },
          other: { model: "openai:gpt-4o-mini" },
        },
        reducers: { messages: "messages" },
      },
    });
    expect(JSON.stringify(await client.assistants.search())).not.toContain("sk-not-for-clients");
  });

  it("a model's finished message (events mode) names its model and carries its usage", async () => {
    const { thread_id } = await client.threads.create();
    const events = await collect(
      client.runs.stream(thread_id, "priced", {
        input: {},
        streamMode: ["events", "messages-tuple"],
      }),
    );
    const ends = events
      .map(
        (e) =>
          e.data as {
            event?: string;
            metadata?: Record<string, unknown>;
            data?: { output?: Record<string, unknown> };
          },
      )
      .filter((d) => d?.event === "on_chat_model_end");
    expect(ends).toHaveLength(1);
    expect(ends[0]!.metadata?.ls_model_name).toBe("priced");
    expect(ends[0]!.data?.output?.usage_metadata).toMatchObject({
      input_tokens: 12,
      output_tokens: 3,
    });
    // The tokens stream with the same model name; the prompt the node stores in the history
    // arrives once, as a human message, with no model to price.
    const tuples = events
      .filter((e) => e.event === "messages")
      .map((e) => e.data as [{ type?: string; content?: unknown }, Record<string, unknown>]);
    const human = tuples.filter(([m]) => m.type === "human");
    expect(human.map(([m]) => m.content)).toEqual(["Hello"]);
    const tokens = tuples.filter(([m]) => m.type !== "human");
    expect(tokens.length).toBeGreaterThan(0);
    expect(tokens.every(([, meta]) => meta.ls_model_name === "priced")).toBe(true);
  });
});
