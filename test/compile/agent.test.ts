/** `agent` nodes: the tool loop, approvals (approve / edit / reject), max_steps, structured answers. */
import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import {
  Command,
  END,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
} from "@langchain/langgraph";
import { createAgent, humanInTheLoopMiddleware } from "langchain";
import { describe, expect, it } from "vitest";
import { compile } from "../../src/compile/index.js";
import { ScriptedChatModel, type ScriptedTurn } from "../../src/compile/models/index.js";
import { UsageCollector } from "../../src/run/usage.js";
import { lookupTicket } from "../../tools/tickets.js";
import { expectSameRun, plain } from "../support/equivalence.js";
import { rejection, specDoc } from "./helpers.js";

const spec = (extra = "", state = "") => `version: 1
name: t
state:
  messages: { type: messages }
  answer: { type: any }
${state}context:
  user_id: { type: string, default: u-7 }
models:
  default: { model: "scripted:agent" }
tools:
  lookup_ticket: { module: ../../../../tools/tickets.ts, export: lookupTicket }
  notify_customer:
    module: ../../../../tools/notify.ts
    export: notifyCustomer
    bind: { user_id: "\${{ context.user_id }}" }
nodes:
  work:
    kind: agent
    prompt: Handle ticket T-1001.
    tools: [lookup_ticket, notify_customer]
${extra}edges:
  - { from: START, to: work }
  - { from: work, to: END }
`;
const lookup: ScriptedTurn = {
  tool_calls: [{ name: "lookup_ticket", args: { ticket_id: "T-1001" }, id: "c1" }],
};
const notify: ScriptedTurn = {
  tool_calls: [{ name: "notify_customer", args: { message: "We are on it" }, id: "c2" }],
};
const thread = (id: string) => ({ configurable: { thread_id: id } });
const texts = (messages: BaseMessage[]) => messages.map((m) => `${m.getType()}: ${m.text}`);
const agentModel = (...turns: (ScriptedTurn | string)[]) =>
  ScriptedChatModel.create("agent", turns);

describe("agent loop", () => {
  it("calls tools until it answers; the loop's messages are appended", async () => {
    const g = await compile(specDoc(spec()), { scripts: { agent: [lookup, notify, "Done."] } });
    const out = await g.invoke({ messages: [{ role: "user", content: "earlier" }] });
    expect(texts(out.messages)).toEqual([
      "human: earlier",
      // Not the prompt: only what the loop adds.
      "ai: ",
      'tool: {"customer":"ada","subject":"Cannot log in","status":"open"}',
      "ai: ",
      // `user_id` was bound from the context: the model never chose it.
      "tool: sent to u-7: We are on it",
      "ai: Done.",
    ]);
  });

  it("sends system, history and prompt, and keeps each answer's usage", async () => {
    const model = agentModel(
      { ...lookup, usage: { input_tokens: 10, output_tokens: 2 } },
      { text: "Open.", usage: { input_tokens: 20, output_tokens: 3 } },
    );
    const g = await compile(specDoc(spec("    system: Be thorough.\n")), {
      models: { default: model as never },
    });
    const usage = new UsageCollector();
    const out = await g.invoke(
      { messages: [{ role: "user", content: "hi" }] },
      { callbacks: [usage] },
    );
    expect(texts(model.calls[0]!.messages)).toEqual([
      "system: Be thorough.",
      "human: hi",
      "human: Handle ticket T-1001.",
    ]);
    expect(texts(model.calls[1]!.messages).slice(3)).toEqual([
      "ai: ",
      'tool: {"customer":"ada","subject":"Cannot log in","status":"open"}',
    ]);
    const answers = out.messages.filter((m: BaseMessage) => m.getType() === "ai") as AIMessage[];
    expect(answers.map((m) => m.usage_metadata?.total_tokens)).toEqual([12, 23]);
    expect(usage.usage).toEqual({ inputTokens: 30, outputTokens: 5, totalTokens: 35 });
  });

  it("runs like createAgent invoked from a hand-written node", async () => {
    const turns = [lookup, "It is open."];
    const compiled = await compile(specDoc(spec()), {
      scripts: { agent: turns },
      checkpointer: new MemorySaver(),
    });
    const agent = createAgent({
      model: agentModel(...turns) as never,
      tools: [lookupTicket],
      name: "work",
    });
    const hand = new StateGraph(MessagesAnnotation)
      .addNode("work", async (s, config) => {
        const sent = [...s.messages, { role: "user", content: "Handle ticket T-1001." }];
        const out = await agent.invoke({ messages: sent as never }, config);
        return { messages: out.messages.slice(sent.length) };
      })
      .addEdge(START, "work")
      .addEdge("work", END)
      .compile({ checkpointer: new MemorySaver() });
    const run = await expectSameRun(compiled, hand, { input: { messages: [] } });
    expect(run.steps).toEqual([["work"]]);
  });

  it("`write` sees the final answer as a Message record; a message channel gets the whole loop", async () => {
    const byChannel = await compile(
      specDoc(spec("    write: log\n", "  log: { type: messages }\n")),
      { scripts: { agent: [lookup, "It is open."] } },
    );
    const out = await byChannel.invoke({});
    expect(out.messages).toEqual([]);
    expect(texts(out.log)).toEqual([
      "ai: ",
      'tool: {"customer":"ada","subject":"Cannot log in","status":"open"}',
      "ai: It is open.",
    ]);
    const byMap = await compile(specDoc(spec('    write: { answer: "${{ output.text }}" }\n')), {
      scripts: { agent: [lookup, "It is open."] },
    });
    expect((await byMap.invoke({})).answer).toBe("It is open.");
  });
});

describe("max_steps", () => {
  it("ends the loop after that many model calls, with LangChain's closing message", async () => {
    const g = await compile(specDoc(spec("    max_steps: 2\n")), {
      scripts: { agent: [lookup, lookup, lookup, "never"] },
    });
    const out = await g.invoke({});
    expect(texts(out.messages)).toEqual([
      "ai: ",
      'tool: {"customer":"ada","subject":"Cannot log in","status":"open"}',
      "ai: ",
      'tool: {"customer":"ada","subject":"Cannot log in","status":"open"}',
      "ai: Model call limits exceeded: run level call limit reached with 2 model calls",
    ]);
  });

  it("is what limits the loop, not the graph's recursion limit", async () => {
    // 30 model calls with approvals take ~120 of the agent's steps; the graph's limit is 25.
    const turns = [...Array(29).fill(lookup), "done"];
    const g = await compile(specDoc(spec("    max_steps: 100\n    approve: [notify_customer]\n")), {
      scripts: { agent: turns },
      checkpointer: new MemorySaver(),
    });
    const out = await g.invoke({}, thread("long"));
    expect(texts(out.messages).at(-1)).toBe("ai: done");
    expect(out.messages).toHaveLength(59);
  });

  it("without it, a loop that does not end fails the node with recursion-limit", async () => {
    const g = await compile(specDoc(spec()), { scripts: { agent: Array(20).fill(lookup) } });
    const e = await rejection(g.invoke({}));
    expect(e).toMatchObject({ name: "GraphspecRunError", code: "recursion-limit", node: "work" });
    expect(e.message).toBe(
      "node `work`: the agent's loop did not end within the recursion limit (25 of its steps, about 12 model calls): the model kept calling tools",
    );
    expect(e.hint).toBe(
      "give the node `max_steps` to end its loop after that many model calls, or raise `limits.recursion`",
    );
  });
});

describe("approvals", () => {
  const approving = spec("    approve: [notify_customer]\n");
  const run = async (id: string, decision: unknown) => {
    const model = agentModel(notify, "Told them.");
    const g = await compile(specDoc(approving), {
      models: { default: model as never },
      checkpointer: new MemorySaver(),
    });
    const paused = await g.invoke({}, thread(id));
    const request = paused.__interrupt__?.[0]?.value as {
      actionRequests: { name: string; args: unknown }[];
      reviewConfigs: unknown[];
    };
    // The person sees the bound user id the tool will run with (the model is never shown it).
    expect(request.actionRequests).toEqual([
      expect.objectContaining({
        name: "notify_customer",
        args: { message: "We are on it", user_id: "u-7" },
      }),
    ]);
    expect(request.reviewConfigs).toEqual([
      { actionName: "notify_customer", allowedDecisions: ["approve", "edit", "reject"] },
    ]);
    // The paused loop is kept under the node: its state shows the pending call.
    const state = await g.getState(thread(id), { subgraphs: true });
    const inner = state.tasks[0]?.state as { values: { messages: BaseMessage[] } };
    expect(texts(inner.values.messages)).toEqual(["human: Handle ticket T-1001.", "ai: "]);
    const out = await g.invoke(new Command({ resume: { decisions: [decision] } }), thread(id));
    // The resume continued inside the loop: the first model call was not made again.
    expect(model.calls).toHaveLength(2);
    return out;
  };

  it("approve: the tool runs", async () => {
    const out = await run("approve", { type: "approve" });
    expect(texts(out.messages)).toEqual([
      "ai: ",
      "tool: sent to u-7: We are on it",
      "ai: Told them.",
    ]);
  });

  it("edit: the tool runs with the edited arguments", async () => {
    const out = await run("edit", {
      type: "edit",
      editedAction: { name: "notify_customer", args: { message: "Fixed soon" } },
    });
    expect(texts(out.messages)).toContain("tool: sent to u-7: Fixed soon");
  });

  it("reject: the model is told instead, and the tool does not run", async () => {
    const out = await run("reject", { type: "reject", message: "Do not contact them yet." });
    const all = texts(out.messages).join("\n");
    expect(all).toContain("Do not contact them yet.");
    expect(all).not.toContain("sent to u-7");
  });

  it("pauses and resumes like createAgent with LangChain's middleware in a hand-written node", async () => {
    const turns = [lookup, "It is open."];
    const compiled = await compile(specDoc(spec("    approve: [lookup_ticket]\n")), {
      scripts: { agent: turns },
      checkpointer: new MemorySaver(),
    });
    const agent = createAgent({
      model: agentModel(...turns) as never,
      tools: [lookupTicket],
      middleware: [humanInTheLoopMiddleware({ interruptOn: { lookup_ticket: true } })],
      name: "work",
    });
    const hand = new StateGraph(MessagesAnnotation)
      .addNode("work", async (s, config) => {
        const sent = [...s.messages, { role: "user", content: "Handle ticket T-1001." }];
        const out = await agent.invoke({ messages: sent as never }, config);
        return { messages: out.messages.slice(sent.length) };
      })
      .addEdge(START, "work")
      .addEdge("work", END)
      .compile({ checkpointer: new MemorySaver() });
    const run = await expectSameRun(compiled, hand, {
      input: { messages: [] },
      resumes: [{ decisions: [{ type: "approve" }] }],
    });
    expect(run.interrupts).toEqual([
      {
        actionRequests: [
          {
            name: "lookup_ticket",
            args: { ticket_id: "T-1001" },
            description: expect.stringContaining("lookup_ticket"),
          },
        ],
        reviewConfigs: [
          { actionName: "lookup_ticket", allowedDecisions: ["approve", "edit", "reject"] },
        ],
      },
    ]);
    expect(run.steps).toEqual([["work"], ["work"]]);
  });

  it("without a checkpointer, an approval fails the node with no-checkpointer", async () => {
    const g = await compile(specDoc(approving), { scripts: { agent: [notify] } });
    const e = await rejection(g.invoke({}));
    expect(e).toMatchObject({ name: "GraphspecRunError", code: "no-checkpointer", node: "work" });
    expect(e.message).toBe(
      "node `work` pauses the run for a person to approve `notify_customer`, which needs a checkpointer to keep the paused run",
    );
  });
});

describe("structured answers", () => {
  const structured = (extra = "") =>
    spec(`    output:
      name: verdict
      schema:
        type: object
        properties: { status: { type: string, enum: [open, closed] } }
        required: [status]
    write: { answer: "\${{ output }}" }
${extra}`);
  const verdict = (args: Record<string, unknown>): ScriptedTurn => ({
    tool_calls: [{ name: "verdict", args }],
  });

  it("the model answers by calling the output tool; write sees the object", async () => {
    const g = await compile(specDoc(structured()), {
      scripts: { agent: [lookup, verdict({ status: "open" })] },
    });
    expect(plain((await g.invoke({})).answer)).toEqual({ status: "open" });
  });

  it("an answer that does not match goes back to the model inside the loop", async () => {
    const model = agentModel(verdict({ status: "pending" }), verdict({ status: "closed" }));
    const g = await compile(specDoc(structured()), { models: { default: model as never } });
    expect(plain((await g.invoke({})).answer)).toEqual({ status: "closed" });
    const told = texts(model.calls[1]!.messages).at(-1);
    expect(told).toBe(
      'tool: Your answer does not match the required schema: `output.status` must be one of "open", "closed". Answer again, matching the schema exactly.',
    );
  });

  it("without `write`, the loop's messages are appended, the tool call answered", async () => {
    const g = await compile(specDoc(structured().replace(/ {4}write: .*\n/, "")), {
      scripts: { agent: [verdict({ status: "open" })] },
    });
    const out = await g.invoke({});
    expect(texts(out.messages)).toEqual([
      "ai: ",
      'tool: {"status":"open"}',
      'ai: Returning structured response: {"status":"open"}',
    ]);
  });

  it("an agent that answers in text fails with invalid-output", async () => {
    const g = await compile(specDoc(structured()), { scripts: { agent: ["just text"] } });
    const e = await rejection(g.invoke({}));
    expect(e).toMatchObject({ code: "invalid-output", node: "work" });
    expect(e.message).toBe(
      "node `work`: the agent ended without a structured answer: the model answered in text instead of calling `verdict`",
    );
    expect(e.hint).toBe(
      "tell the model (in `system` or `prompt`) to give its final answer by calling `verdict`",
    );
  });

  it("an agent that reaches max_steps first fails with invalid-output saying so", async () => {
    const g = await compile(specDoc(structured("    max_steps: 1\n")), {
      scripts: { agent: [lookup, verdict({ status: "open" })] },
    });
    const e = await rejection(g.invoke({}));
    expect(e).toMatchObject({ code: "invalid-output", node: "work" });
    expect(e.message).toBe(
      "node `work`: the agent reached `max_steps` (1 model calls) before it gave its structured answer",
    );
  });
});
