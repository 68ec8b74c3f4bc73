/**
 * Tool-calling loops through the real `@langchain/openai` client over HTTP against the OpenAI stub:
 * what each model call of an `agent` and of an `llm` + `tools` loop receives, what their tools see
 * as `runtime.state`, and how an agent's structured answer is retried with `approve` and
 * `max_steps` — compared with what a hand-written LangGraph program does on the same input.
 */
import { afterEach, describe, expect, it } from "vitest";
import { compile, createExecutor } from "../../src/index.js";
import { type OpenAIStub, type StubTurn, startOpenAIStub } from "../support/openai-stub.js";
import { rejection, specDoc } from "./helpers.js";

const DIR = "test/fixtures/agent-provider";

let stub: OpenAIStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});
const start = async (...turns: (StubTurn | string)[]) => {
  stub = await startOpenAIStub(turns);
  return { STUB_URL: stub.url };
};

/** Each request's messages as `role: text` (`[call name]` for an AI message's tool calls). */
const sent = () =>
  stub!.requests.map((r) =>
    (
      r.messages as {
        role: string;
        content: unknown;
        tool_calls?: { function: { name: string } }[];
      }[]
    ).map(
      (m) =>
        `${m.role}: ${m.tool_calls ? `[call ${m.tool_calls.map((c) => c.function.name).join(", ")}]` : m.content}`,
    ),
  );

/** An agent with a structured answer, and `approve` / `max_steps` as `extra` says. */
const structuredAgent = (extra: string) => `version: 1
name: t
state:
  messages: { type: messages }
  verdict: { type: object }
models:
  default:
    model: "openai:gpt-4o-mini"
    base_url: "\${{ env.STUB_URL }}"
    api_key: test
    max_retries: 0
tools:
  lookup_order: { module: ../../agent-provider/tools.ts, export: lookupOrder }
nodes:
  decide:
    kind: agent
    prompt: Decide on order O-1.
    tools: [lookup_order]
${extra}    output:
      name: verdict
      schema:
        type: object
        properties: { status: { type: string, enum: [open, closed] } }
        required: [status]
    write: verdict
edges:
  - { from: START, to: decide }
  - { from: decide, to: END }
`;
const VARIANTS = {
  neither: "",
  approve: "    approve: [lookup_order]\n",
  max_steps: "    max_steps: 5\n",
  both: "    approve: [lookup_order]\n    max_steps: 5\n",
};
const wrong = { tool_calls: [{ name: "verdict", args: { status: "maybe" } }] };
const right = { tool_calls: [{ name: "verdict", args: { status: "closed" } }] };
const TOLD =
  'tool: Your answer does not match the required schema: `output.status` must be one of "open", "closed". Answer again, matching the schema exactly.';

describe("an agent's structured answer that does not match its schema", () => {
  for (const [variant, extra] of Object.entries(VARIANTS)) {
    it(`with ${variant}: is sent back once, on the loop's one path, and a right answer ends the loop`, async () => {
      const env = await start(wrong, right);
      const g = await compile(specDoc(structuredAgent(extra)), { env });
      const out = await g.invoke({}, { configurable: { thread_id: "t" } });
      expect(out.verdict).toEqual({ status: "closed" });
      // Two model calls, the second told what was wrong — never a third.
      expect(sent()).toEqual([
        ["user: Decide on order O-1."],
        ["user: Decide on order O-1.", "assistant: [call verdict]", TOLD],
      ]);
    });

    it(`with ${variant}: a text answer after it ends the loop with invalid-output`, async () => {
      const env = await start(wrong, "It is closed.", "unexpected third call");
      const g = await compile(specDoc(structuredAgent(extra)), { env });
      const e = await rejection(g.invoke({}, { configurable: { thread_id: "t" } }));
      expect(e).toMatchObject({ code: "invalid-output", node: "decide" });
      expect(e.message).toMatch(/answered in text instead of calling `verdict`/);
      expect(stub!.requests).toHaveLength(2);
    });
  }

  it("the model is offered the output tool once, and a run's tool allowlist does not refuse its feedback", async () => {
    const env = await start(wrong, right);
    const g = await compile(specDoc(structuredAgent(VARIANTS.both)), { env });
    // An allowlist naming no tool: the output tool is how the agent answers, not a tool it uses.
    const out = await g.invoke({}, { configurable: { thread_id: "t", toolIds: [] } });
    expect(out.verdict).toEqual({ status: "closed" });
    const offered = (stub!.requests[0]!.tools as { function: { name: string } }[]).map(
      (t) => t.function.name,
    );
    expect(offered.sort()).toEqual(["lookup_order", "verdict"]);
    expect(sent()[1]!.at(-1)).toBe(TOLD);
  });

  it("with approve and max_steps, through the executor: invalid-output, not a parallel write of LangChain's channels", async () => {
    await start(wrong, wrong, wrong, wrong, wrong, wrong);
    const { mkdtempSync, writeFileSync, rmSync } = await import("node:fs");
    const dir = mkdtempSync(`${DIR}/tmp-`);
    try {
      writeFileSync(
        `${dir}/decide.yaml`,
        structuredAgent(VARIANTS.both)
          .replace("name: t", "name: decide")
          .replace("../../agent-provider/tools.ts", "../tools.ts"),
      );
      const exec = createExecutor({ dir, checkpointer: "memory", env: { STUB_URL: stub!.url } });
      const result = await exec.run("decide", { input: {}, threadId: "t" });
      await exec.close();
      expect(result.status).toBe("failed");
      expect(result.error).toMatchObject({ code: "invalid-output", node: "decide" });
      expect(result.error!.message).toMatch(/reached `max_steps` \(5 model calls\)/);
      expect(JSON.stringify(result.error)).not.toMatch(/jumpTo/);
      expect(stub!.requests).toHaveLength(5);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("what tools see as runtime.state", () => {
  it("inside an agent: the graph's state, as in a tools node", async () => {
    const env = await start(
      { tool_calls: [{ name: "save_note", args: { note: "hello" } }] },
      "Saved.",
    );
    const exec = createExecutor({ dir: DIR, checkpointer: "memory", env });
    const result = await exec.run("session", { input: { session_id: "S-9" } });
    await exec.close();
    expect(result.status).toBe("completed");
    expect(sent()[1]).toEqual([
      "user: Save a note saying hello.",
      "assistant: [call save_note]",
      'tool: saved "hello" in session S-9',
    ]);
  });

  it("in a tools node: the graph's state", async () => {
    const env = await start(
      { tool_calls: [{ name: "save_note", args: { note: "hi" } }] },
      "Saved.",
    );
    const exec = createExecutor({ dir: DIR, checkpointer: "memory", env });
    const result = await exec.run("order-loop", { input: { order: "O-2", session_id: "S-3" } });
    await exec.close();
    expect(result.status).toBe("completed");
    expect(sent()[1]).toContain('tool: saved "hi" in session S-3');
  });
});

describe("what each model call of an llm + tools loop receives", () => {
  it("the prompt once, where the spec puts it, stored in the history; follow-up calls see the history", async () => {
    const env = await start(
      { tool_calls: [{ name: "lookup_order", args: { order_id: "O-2" } }] },
      { tool_calls: [{ name: "save_note", args: { note: "shipped" } }] },
      "O-2 has shipped.",
    );
    const exec = createExecutor({ dir: DIR, checkpointer: "memory", env });
    const result = await exec.run("order-loop", { input: { order: "O-2", session_id: "S-1" } });
    await exec.close();
    expect(result.status).toBe("completed");
    const lookup = 'tool: {"order_id":"O-2","status":"shipped"}';
    const saved = 'tool: saved "shipped" in session S-1';
    expect(sent()).toEqual([
      ["system: You help with orders.", "user: Order: O-2"],
      [
        "system: You help with orders.",
        "user: Order: O-2",
        "assistant: [call lookup_order]",
        lookup,
      ],
      [
        "system: You help with orders.",
        "user: Order: O-2",
        "assistant: [call lookup_order]",
        lookup,
        "assistant: [call save_note]",
        saved,
      ],
    ]);
    const history = (result.output.messages as { type: string; content: string }[]).map(
      (m) => `${m.type}: ${m.content}`,
    );
    expect(history).toEqual([
      "human: Order: O-2",
      "ai: ",
      lookup,
      "ai: ",
      saved,
      "ai: O-2 has shipped.",
    ]);
  });
});
