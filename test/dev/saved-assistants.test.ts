/**
 * Saved assistants on `graphspec dev` (the built CLI, memory checkpoints) through the official SDK:
 * created, run with (its model and context under the run's), updated, versioned and deleted; the
 * graph's own assistant read-only. In memory, a context's secrets are held in the process (shown
 * as ***), so a run still gets them.
 */
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, startDevServer } from "../support/dev-server.js";

const GRAPH = `version: 1
name: greeter
description: Says which model answered and who asked.
state:
  messages: { type: messages }
  asked_by: { type: string, default: "" }
  key_ok: { type: boolean, default: false }
context:
  user: { type: string }
  api_token: { type: string }
models:
  default: { model: "scripted:small", allow: [large] }
  large: { model: "scripted:large" }
nodes:
  who:
    kind: set
    values:
      asked_by: "\${{ context.user }}"
      key_ok: "\${{ context.api_token.startsWith('tok-') }}"
  answer: { kind: llm, system: Answer. }
edges:
  - { from: START, to: who }
  - { from: who, to: answer }
  - { from: answer, to: END }
`;

let dev: DevServer;
let client: Client;
beforeAll(async () => {
  dev = await startDevServer({
    files: { "graphs/greeter.yaml": GRAPH },
    scripts: { small: ["small answers", "small answers"], large: ["large answers"] },
  });
  client = new Client({ apiUrl: dev.url, callerOptions: { maxRetries: 0 } });
}, 60_000);
afterAll(() => dev?.stop());

const input = { messages: [{ role: "user", content: "hi" }] };
const last = (v: unknown) => (v as { messages: { content: unknown }[] }).messages.at(-1)?.content;

describe("graphspec dev: saved assistants through the SDK", () => {
  it("runs with a saved assistant's model and context, versions it, deletes it", async () => {
    const a = await client.assistants.create({
      graphId: "greeter",
      name: "large for ada",
      config: { configurable: { model: "large" } },
      context: { user: "ada", api_token: "tok-5e1d9c3a7b" },
    });
    expect(a.context).toEqual({ user: "ada", api_token: "***" });
    const thread = await client.threads.create();
    const values = await client.runs.wait(thread.thread_id, a.assistant_id, { input });
    expect(last(values)).toBe("large answers");
    expect(values).toMatchObject({ asked_by: "ada", key_ok: true });
    // The run's context over the assistant's, key by key.
    const other = await client.threads.create();
    const mine = await client.runs.wait(other.thread_id, a.assistant_id, {
      input,
      context: { user: "grace" },
      config: { configurable: { model: "default" } },
    });
    expect(last(mine)).toBe("small answers");
    expect(mine).toMatchObject({ asked_by: "grace", key_ok: true });

    const v2 = await client.assistants.update(a.assistant_id, { name: "renamed" });
    expect(v2).toMatchObject({ version: 2, name: "renamed", context: a.context });
    expect((await client.assistants.getVersions(a.assistant_id)).map((v) => v.version)).toEqual([
      2, 1,
    ]);
    expect((await client.assistants.getSchemas(a.assistant_id)).graph_id).toBe("greeter");

    await expect(client.assistants.delete("greeter")).rejects.toThrow(/409/);
    await expect(client.assistants.update("greeter", { name: "x" })).rejects.toThrow(/409/);
    await client.assistants.delete(a.assistant_id);
    expect((await client.assistants.search()).map((x) => x.name)).toEqual(["greeter"]);
  });
});
