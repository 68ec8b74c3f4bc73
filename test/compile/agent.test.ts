/** `agent` nodes: the tool loop, approvals (approve / edit / reject), max_steps, structured answers. */
import {
  Command,
  END,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
} from "@langchain/langgraph";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { compile } from "../../src/compile/index.js";
import { ScriptedChatModel, type ScriptedTurn } from "../../src/compile/models/index.js";
import { expectSameRun, plain } from "../support/equivalence.js";
import { rejection, specDoc } from "./helpers.js";

const spec = (extra = "") => `version: 1
name: t
state:
  messages: { type: messages }
  answer: { type: any }
context:
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
const texts = (messages: { getType(): string; text: string }[]) =>
  messages.map((m) => `${m.getType()}: ${m.text}`);

describe("agent loop", () => {
  it("calls tools until it answers; the loop's messages are appended", async () => {
    const g = await compile(specDoc(spec()), { scripts: { agent: [lookup, notify, "Done."] } });
    const out = await g.invoke({});
    expect(texts(out.messages)).toEqual([
      "ai: ",
      'tool: {"customer":"ada","subject":"Cannot log in","status":"open"}',
      "ai: ",
      // `user_id` was bound from the context: the model never chose it.
      "tool: sent to u-7: We are on it",
      "ai: Done.",
    ]);
  });

  it("runs like createAgent invoked from a hand-written node", async () => {
    const turns = [lookup, "It is open."];
    const compiled = await compile(specDoc(spec()), {
      scripts: { agent: turns },
      checkpointer: new MemorySaver(),
    });
    const { lookupTicket } = await import("../../tools/tickets.js");
    const agent = createAgent({
      model: ScriptedChatModel.create("agent", turns) as never,
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

  it("max_steps ends the loop after that many model calls", async () => {
    const g = await compile(specDoc(spec("    max_steps: 2\n")), {
      scripts: { agent: [lookup, lookup, lookup, "never"] },
    });
    const out = await g.invoke({});
    const calls = out.messages.filter((m: { getType(): string }) => m.getType() === "tool").length;
    expect(calls).toBe(2);
    expect(texts(out.messages)).not.toContain("ai: never");
  });
});

describe("approvals", () => {
  const approving = spec("    approve: [notify_customer]\n");
  const run = async (id: string, decision: unknown) => {
    const g = await compile(specDoc(approving), {
      scripts: { agent: [notify, "Told them."] },
      checkpointer: new MemorySaver(),
    });
    const paused = await g.invoke({}, thread(id));
    const request = paused.__interrupt__?.[0]?.value as {
      actionRequests: { name: string; args: unknown }[];
    };
    expect(request.actionRequests).toEqual([
      expect.objectContaining({ name: "notify_customer", args: { message: "We are on it" } }),
    ]);
    return g.invoke(new Command({ resume: { decisions: [decision] } }), thread(id));
  };

  it("approve: the tool runs", async () => {
    const out = await run("approve", { type: "approve" });
    expect(texts(out.messages)).toContain("tool: sent to u-7: We are on it");
    expect(texts(out.messages).at(-1)).toBe("ai: Told them.");
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
});

describe("structured answers", () => {
  const structured = spec(`    output:
      name: verdict
      schema:
        type: object
        properties: { status: { type: string, enum: [open, closed] } }
        required: [status]
    write: { answer: "\${{ output }}" }
`);

  it("the model answers by calling the output tool; write sees the object", async () => {
    const g = await compile(specDoc(structured), {
      scripts: { agent: [lookup, { tool_calls: [{ name: "verdict", args: { status: "open" } }] }] },
    });
    expect(plain((await g.invoke({})).answer)).toEqual({ status: "open" });
  });

  it("an agent that never gives the structured answer fails with invalid-output", async () => {
    const g = await compile(specDoc(structured), { scripts: { agent: ["just text"] } });
    const e = await rejection(g.invoke({}));
    expect(e).toMatchObject({ code: "invalid-output", node: "work" });
  });
});
