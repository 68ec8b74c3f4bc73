/**
 * A run's choices through the official SDK: `config.configurable.model` from the spec's `allow`
 * lists, `config.configurable.toolIds` (the tools the run's models may call), and the shape of
 * both checked before anything runs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./harness.js";

let h: Harness;
const addThenAnswer = (answer: string) => [
  { tool_calls: [{ name: "add", args: { a: 2, b: 3 } }] },
  { text: answer },
];
beforeAll(async () => {
  h = await startHarness({
    scripts: { small: addThenAnswer("small says 5"), large: addThenAnswer("large says 5") },
  });
});
afterAll(() => h.stop());

const input = { messages: [{ role: "user", content: "2 + 3?" }] };
type Message = { type: string; content: unknown; status?: string; artifact?: unknown };
const messagesOf = (values: unknown) => (values as { messages: Message[] }).messages;

describe("a run's choices, from the SDK's config", () => {
  it("runs the default model, or the one `configurable.model` chooses from its allow list", async () => {
    const client = h.client();
    const one = await client.threads.create();
    const byDefault = await client.runs.wait(one.thread_id, "chooser", { input });
    expect(messagesOf(byDefault).at(-1)?.content).toBe("small says 5");
    const two = await client.threads.create();
    const chosen = await client.runs.wait(two.thread_id, "chooser", {
      input,
      config: { configurable: { model: "large" } },
    });
    expect(messagesOf(chosen).at(-1)?.content).toBe("large says 5");
  });

  it("refuses a model no allow list names, and nothing runs on the thread", async () => {
    const client = h.client();
    const thread = await client.threads.create();
    const refused = client.runs.wait(thread.thread_id, "chooser", {
      input,
      config: { configurable: { model: "gpt-5" } },
      raiseError: true,
    });
    await expect(refused).rejects.toThrow(/model-not-allowed|not allowed/);
    const state = await client.threads.getState(thread.thread_id);
    expect(state.values).toEqual({});
  });

  it("`toolIds` denies the other tools: the model gets a policy_denied tool message", async () => {
    const client = h.client();
    const thread = await client.threads.create();
    const values = await client.runs.wait(thread.thread_id, "chooser", {
      input,
      config: { configurable: { toolIds: ["shout"] } },
    });
    const tool = messagesOf(values).find((m) => m.type === "tool");
    expect(tool).toMatchObject({
      status: "error",
      artifact: { errorCode: "policy_denied", tool: "add", allowedTools: ["shout"] },
    });
    expect(String(tool?.content)).toContain("shout");
  });

  it("answers 422 for choices of the wrong type, naming the field", async () => {
    for (const [config, field] of [
      [{ configurable: { toolIds: "add" } }, "config.configurable.toolIds"],
      [{ configurable: { model: 7 } }, "config.configurable.model"],
      [{ recursion_limit: "many" }, "config.recursion_limit"],
    ] as const) {
      const res = await fetch(`${h.url}/runs/wait`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ assistant_id: "chooser", input, config }),
      });
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({ field });
    }
  });
});
