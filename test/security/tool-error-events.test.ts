/**
 * A tool that throws, seen through the official SDK's `events` stream mode: LangChain's tracer
 * writes the error's stack (with the server's file paths) into `on_tool_error`; a client gets the
 * error's message, never where in the server it was thrown (issue 23, item 11).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, expect, it } from "vitest";
import { createExecutor, folderCatalog, startServer } from "../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-tool-error-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
mkdirSync(join(dir, "graphs"));
writeFileSync(
  join(dir, "tools.mjs"),
  'export const lookup = () => { throw new Error("the orders service said no\\n\\ntry again later"); };\n',
);
writeFileSync(
  join(dir, "graphs", "orders.yaml"),
  `version: 1
name: orders
state:
  messages: { type: messages }
models:
  default: { model: "scripted:orders" }
tools:
  lookup:
    module: ../tools.mjs
    description: Look an order up.
    schema: { type: object, properties: { id: { type: string } }, required: [id] }
nodes:
  work: { kind: agent, tools: [lookup], max_steps: 3 }
edges:
  - { from: START, to: work }
  - { from: work, to: END }
`,
);

it("an on_tool_error event carries the error's message, not its stack or the server's paths", async () => {
  const graphs = join(dir, "graphs");
  const server = await startServer({
    exec: createExecutor({
      dir: graphs,
      checkpointer: "memory",
      scripts: {
        orders: [{ tool_calls: [{ name: "lookup", args: { id: "A-1" } }] }, { text: "sorry" }],
      } as never,
    }),
    graphs: await folderCatalog(graphs),
    auth: undefined,
    port: 0,
  });
  try {
    const client = new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
    const thread = await client.threads.create();
    const errors: unknown[] = [];
    for await (const part of client.runs.stream(thread.thread_id, "orders", {
      input: { messages: [{ role: "user", content: "where is A-1?" }] },
      streamMode: ["events"],
    })) {
      const data = part.data as { event?: string; data?: { error?: unknown } };
      if (part.event === "events" && data.event === "on_tool_error") errors.push(data.data?.error);
    }
    expect(errors).toHaveLength(1);
    // The message whole, its own blank line included: only the stack after it goes.
    expect(errors[0]).toBe("the orders service said no\n\ntry again later");
    expect(JSON.stringify(errors)).not.toContain(dir);
  } finally {
    await server.close(2000);
  }
});
