/**
 * The run view's fold of the server-sent events (src/web/runs/run-progress.ts). The events are
 * the ones graphspec's server sent for graphs/ticket-agent.yaml and graphs/support-triage.yaml
 * with `streamMode: ["tasks", "messages-tuple", "events"]` and `streamSubgraphs: true`, trimmed.
 */
import { describe, expect, it } from "vitest";
import {
  applyEvent,
  emptyProgress,
  finishedProgress,
  progressFromState,
  type RunProgress,
  startedProgress,
} from "../../src/web/runs/run-progress.js";

const fold = (events: [string, unknown][], from: RunProgress = emptyProgress()) =>
  events.reduce((p, [e, d]) => applyEvent(p, e, d), from);

const AGENT_NS = "investigate:bdf0cfa4";
const toolMeta = {
  langgraph_node: "tools",
  langgraph_checkpoint_ns: `${AGENT_NS}|tools:2cb7e866`,
};

describe("applyEvent", () => {
  it("keeps each of the graph's own tasks' input by task id (a map run's is its own), not a subgraph's", () => {
    const p = fold([
      ["tasks", { id: "d1", name: "draft", input: { topic: "a" }, triggers: ["__pregel_push"] }],
      ["tasks", { id: "d2", name: "draft", input: { topic: "b" }, triggers: ["__pregel_push"] }],
      ["tasks", { id: "d1", name: "draft", result: { drafts: ["a!"] }, interrupts: [] }],
      ["tasks|research:x1", { id: "i1", name: "search", input: { q: 1 }, triggers: [] }],
    ]);
    expect(p.taskInputs).toEqual({ d1: { topic: "a" }, d2: { topic: "b" } });
  });

  it("lights the graph's nodes as their tasks start and finish; a subgraph's as `parent:child`", () => {
    const p = fold([
      ["metadata", { run_id: "r1", attempt: 1 }],
      ["tasks", { id: "t1", name: "classify", input: {}, triggers: [], interrupts: [] }],
    ]);
    expect(p.runId).toBe("r1");
    expect(p.nodes).toEqual({ classify: "running" });
    const q = fold(
      [
        [
          "tasks",
          {
            id: "t1",
            name: "classify",
            result: { priority: "urgent" },
            interrupts: [],
            error: null,
          },
        ],
        [`tasks|${AGENT_NS}`, { id: "x", name: "model_request", input: {}, interrupts: [] }],
        ["tasks", { id: "t2", name: "approval", input: {}, interrupts: [] }],
        [
          "tasks",
          {
            id: "t2",
            name: "approval",
            result: {},
            interrupts: [{ id: "i1", value: { question: "Escalate T-1?" } }],
            error: null,
          },
        ],
        ["tasks", { id: "t3", name: "notify", result: null, interrupts: [], error: "boom" }],
      ],
      p,
    );
    // The agent's inner step is keyed under it (the drawing has no such node to light).
    expect(q.nodes).toEqual({
      classify: "done",
      "investigate:model_request": "running",
      approval: "interrupted",
      notify: "error",
    });
    // A subgraph's node, two deep: the ids of the xray drawing's opened clusters.
    const nested = fold([
      ["tasks|research:a1b2", { id: "s1", name: "search", input: {}, interrupts: [] }],
      ["tasks|research:a1b2|deep:c3d4", { id: "s2", name: "look", input: {}, interrupts: [] }],
      [
        "tasks|research:a1b2",
        { id: "s1", name: "search", result: {}, interrupts: [], error: null },
      ],
    ]);
    expect(nested.nodes).toEqual({ "research:search": "done", "research:deep:look": "running" });
  });

  it("gathers each message's tokens under the node that streamed it, an agent's included", () => {
    const meta = { langgraph_node: "classify", langgraph_checkpoint_ns: "classify:ed28" };
    const p = fold([
      ["messages", [{ type: "ai", content: '{"pr', id: "m1" }, meta]],
      ["messages", [{ type: "AIMessageChunk", content: 'iority":1}', id: "m1" }, meta]],
      [
        `messages|${AGENT_NS}`,
        [
          { type: "ai", content: [{ type: "text", text: "I told the customer." }], id: "m2" },
          {
            langgraph_node: "model_request",
            langgraph_checkpoint_ns: `${AGENT_NS}|model_request:1`,
          },
        ],
      ],
      // A tool's message is shown with its call, not as streamed text.
      [`messages|${AGENT_NS}`, [{ type: "tool", content: "sent", id: "m3" }, toolMeta]],
    ]);
    expect(p.messages).toEqual([
      { id: "m1", node: "classify", text: '{"priority":1}' },
      { id: "m2", node: "investigate", text: "I told the customer." },
    ]);
  });

  it("adds up usage from the messages' usage_metadata as it comes", () => {
    const meta = { langgraph_checkpoint_ns: `${AGENT_NS}|model_request:1`, ls_model_name: "gpt-x" };
    const usage = (i: number, o: number) => ({
      input_tokens: i,
      output_tokens: o,
      total_tokens: i + o,
    });
    const p = fold([
      [
        `messages|${AGENT_NS}`,
        [{ type: "ai", content: "", id: "a1", usage_metadata: usage(20, 14) }, meta],
      ],
    ]);
    expect(p.usage).toEqual({ input: 20, output: 14, total: 34 });
    const q = fold(
      [
        [
          `messages|${AGENT_NS}`,
          [{ type: "ai", content: "", id: "a2", usage_metadata: usage(35, 16) }, meta],
        ],
      ],
      p,
    );
    expect(q.usage).toEqual({ input: 55, output: 30, total: 85 });
    expect(q.usageByMessage.a2).toEqual({ model: "gpt-x", input: 35, output: 16, total: 51 });
  });

  it("takes a model's finished message (events) as its usage, once, with the streamed chunks'", () => {
    const meta = { ls_model_name: "priced", langgraph_checkpoint_ns: "answer:1" };
    const u = { input_tokens: 12, output_tokens: 3, total_tokens: 15 };
    const p = fold([
      ["messages", [{ type: "AIMessageChunk", content: "Hi", id: "m1", usage_metadata: u }, meta]],
      [
        "events",
        {
          event: "on_chat_model_end",
          run_id: "r9",
          metadata: meta,
          data: { output: { type: "ai", id: "m1", content: "Hi", usage_metadata: u } },
        },
      ],
      [
        "events",
        {
          event: "on_chat_model_end",
          run_id: "r10",
          metadata: meta,
          data: { output: { type: "ai", id: "m2", content: "", usage_metadata: u } },
        },
      ],
    ]);
    expect(p.usage).toEqual({ input: 24, output: 6, total: 30 });
    expect(p.usageByMessage.m2).toEqual({ model: "priced", input: 12, output: 3, total: 15 });
  });

  it("keeps the cost a gateway gave (response_metadata.usage.cost), streamed or finished", () => {
    const meta = { ls_model_name: "gpt-x", langgraph_checkpoint_ns: "answer:1" };
    const u = { input_tokens: 12, output_tokens: 3, total_tokens: 15 };
    const withCost = { usage: { cost: 0.0042 } };
    const p = fold([
      [
        "messages",
        [
          {
            type: "AIMessageChunk",
            content: "",
            id: "m1",
            usage_metadata: u,
            response_metadata: withCost,
          },
          meta,
        ],
      ],
      [
        "events",
        {
          event: "on_chat_model_end",
          run_id: "r2",
          metadata: meta,
          data: {
            output: {
              type: "ai",
              id: "m2",
              content: "",
              usage_metadata: u,
              response_metadata: withCost,
            },
          },
        },
      ],
    ]);
    expect(p.usageByMessage.m1?.cost).toBe(0.0042);
    expect(p.usageByMessage.m2?.cost).toBe(0.0042);
  });

  it("counts a message once when its finished message (events) comes before its chunk with the usage", () => {
    // OpenAI's usage is in its last chunk, which the stream may deliver after on_chat_model_end.
    const meta = { ls_model_name: "priced", langgraph_checkpoint_ns: "answer:1" };
    const u = { input_tokens: 12, output_tokens: 3, total_tokens: 15 };
    const p = fold([
      ["messages", [{ type: "AIMessageChunk", content: "Hi", id: "m1" }, meta]],
      [
        "events",
        {
          event: "on_chat_model_end",
          run_id: "r9",
          metadata: meta,
          data: { output: { type: "ai", id: "m1", content: "Hi", usage_metadata: u } },
        },
      ],
      ["messages", [{ type: "AIMessageChunk", content: "", id: "m1", usage_metadata: u }, meta]],
    ]);
    expect(p.usage).toEqual({ input: 12, output: 3, total: 15 });
    expect(p.usageByMessage.m1).toEqual({ model: "priced", input: 12, output: 3, total: 15 });
  });

  it("lists tool calls with the arguments the tool got (bound ones included) and their results", () => {
    const p = fold([
      [
        "events",
        {
          event: "on_tool_start",
          name: "notify_customer",
          run_id: "tr1",
          metadata: toolMeta,
          data: { input: { message: "We are on it.", user_id: "u-7" } },
        },
      ],
      ["events", { event: "on_chain_start", name: "tools", run_id: "c1", data: {} }],
    ]);
    expect(p.toolCalls).toEqual([
      {
        id: "tr1",
        name: "notify_customer",
        node: "investigate",
        args: { message: "We are on it.", user_id: "u-7" },
      },
    ]);
    const q = fold(
      [
        [
          "events",
          {
            event: "on_tool_end",
            name: "notify_customer",
            run_id: "tr1",
            metadata: toolMeta,
            data: {
              output: { type: "tool", content: "sent to u-7: We are on it.", status: "success" },
            },
          },
        ],
      ],
      p,
    );
    expect(q.toolCalls[0]).toMatchObject({ result: "sent to u-7: We are on it.", failed: false });
    const failed = fold(
      [
        [
          "events",
          {
            event: "on_tool_end",
            run_id: "tr1",
            data: { output: { content: "Error: no", status: "error" } },
          },
        ],
      ],
      p,
    );
    expect(failed.toolCalls[0]).toMatchObject({ result: "Error: no", failed: true });
  });

  it("shows a tool's error as the server's event gives it (its message: the server strips the stack)", () => {
    const p = fold([
      [
        "events",
        { event: "on_tool_start", name: "lookup", run_id: "e1", data: { input: { d: "x" } } },
      ],
      ["events", { event: "on_tool_error", run_id: "e1", data: { error: "404 no company at x" } }],
    ]);
    expect(p.toolCalls[0]).toMatchObject({ result: "404 no company at x", failed: true });
  });

  it("takes the server's error event as the run's failure, and marks the running node", () => {
    const p = fold([
      ["tasks", { id: "t1", name: "classify", input: {}, interrupts: [] }],
      [
        "error",
        {
          error: "expression",
          message: "node `classify`: no such key: ticket",
          hint: "pass `ticket` in the input",
          node: "classify",
        },
      ],
    ]);
    expect(p.status).toBe("error");
    expect(p.error).toBe("node `classify`: no such key: ticket");
    expect(p.errorDetail).toEqual({
      code: "expression",
      hint: "pass `ticket` in the input",
      node: "classify",
    });
    expect(finishedProgress(p, false).nodes).toEqual({ classify: "error" });
  });
});

describe("a run's end and the next one", () => {
  it("ends interrupted when the thread has pending interrupts, else successful", () => {
    expect(finishedProgress(emptyProgress(), true).status).toBe("interrupted");
    expect(finishedProgress(emptyProgress(), false).status).toBe("success");
  });

  it("a node still running when the run ends well is done (a joined run without tasks events)", () => {
    const p = { ...emptyProgress(), nodes: { hold: "running", one: "done" } } as RunProgress;
    expect(finishedProgress(p, false).nodes).toEqual({ hold: "done", one: "done" });
  });

  it("a resume keeps what was shown and lights the paused node again", () => {
    const p = {
      ...emptyProgress(),
      nodes: { classify: "done", approval: "interrupted" },
    } as RunProgress;
    expect(startedProgress(p)).toMatchObject({ status: "running", nodes: { classify: "done" } });
  });
});

describe("progressFromState (a thread opened by its URL)", () => {
  it("shows its text, its tool calls with results, its usage, and where it waits", () => {
    const values = {
      messages: [
        { type: "human", content: "What about T-1001?", id: "h1" },
        {
          type: "ai",
          name: "investigate",
          content: "",
          id: "a1",
          tool_calls: [{ id: "call_1", name: "lookup_ticket", args: { ticket_id: "T-1001" } }],
          usage_metadata: { input_tokens: 20, output_tokens: 14, total_tokens: 34 },
        },
        { type: "tool", content: '{"customer":"ada"}', tool_call_id: "call_1", id: "t1" },
        { type: "ai", name: "investigate", content: "Looking.", id: "a2" },
      ],
    };
    const p = progressFromState(values, ["investigate"], []);
    expect(p.status).toBe("interrupted");
    expect(p.nodes).toEqual({ investigate: "interrupted" });
    expect(p.messages).toEqual([{ id: "a2", node: "investigate", text: "Looking." }]);
    expect(p.toolCalls).toEqual([
      {
        id: "call_1",
        name: "lookup_ticket",
        node: "investigate",
        args: { ticket_id: "T-1001" },
        result: '{"customer":"ada"}',
        failed: false,
      },
    ]);
    expect(p.usage).toEqual({ input: 20, output: 14, total: 34 });
    expect(progressFromState(values, [], []).status).toBe("success");
    expect(progressFromState({}, [], []).status).toBeUndefined();
  });
});
