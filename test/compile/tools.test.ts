/** Declared tools, the `tools` node (LangGraph's ToolNode) and the `tool` node (one direct call). */
import { AIMessage } from "@langchain/core/messages";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { END, MemorySaver, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { describe, expect, it } from "vitest";
import { CompileContext } from "../../src/compile/compile-context.js";
import { compile } from "../../src/compile/index.js";
import { expectSameRun } from "../support/equivalence.js";
import { rejection, specDoc } from "./helpers.js";

const TOOLS = `tools:
  add:
    module: ./tools.ts
    description: Add two numbers.
    schema: { type: object, properties: { a: { type: number }, b: { type: number } }, required: [a, b] }
  explode: { module: ./tools.ts }
  account:
    module: ./tools.ts
    bind: { user_id: "\${{ context.user_id }}" }
`;
const callAll = (...calls: { name: string; args: Record<string, unknown> }[]) =>
  new AIMessage({
    content: "",
    tool_calls: calls.map((c, i) => ({ ...c, id: `c${i}`, type: "tool_call" as const })),
  });

const toolsSpec = (tools = "") => `version: 1
name: t
state:
  messages: { type: messages }
context:
  user_id: { type: string, default: u-1 }
${TOOLS}nodes:
  run: { kind: tools${tools} }
edges:
  - { from: START, to: run }
  - { from: run, to: END }
`;
const texts = (out: Record<string, unknown>) =>
  (out.messages as { text: string }[]).slice(1).map((m) => m.text);

describe("tools node", () => {
  it("runs the last AI message's calls like LangGraph's ToolNode", async () => {
    const input = {
      messages: [callAll({ name: "add", args: { a: 2, b: 3 } }, { name: "explode", args: {} })],
    };
    const compiled = await compile(specDoc(toolsSpec(", tools: [add, explode]")), {
      checkpointer: new MemorySaver(),
    });
    const { add, explode } = await import("../fixtures/compile/core/tools.js");
    const { tool } = await import("@langchain/core/tools");
    const addTool = tool(add, {
      name: "add",
      description: "Add two numbers.",
      schema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
    });
    const hand = new StateGraph(MessagesAnnotation)
      .addNode("run", new ToolNode([addTool, explode]))
      .addEdge(START, "run")
      .addEdge("run", END)
      .compile({ checkpointer: new MemorySaver() });
    const run = await expectSameRun(compiled, hand, { input });
    expect(run.steps).toEqual([["run"]]);
    const out = await (await compile(specDoc(toolsSpec()))).invoke(input);
    // A tool that throws is an error message for the model, not a failed run.
    expect(texts(out)).toEqual(["5", "Error: the tool blew up\n Please fix your mistakes."]);
  });

  it("a call for a tool the node does not have is an error message for the model", async () => {
    const g = await compile(specDoc(toolsSpec(", tools: [add]")));
    const out = await g.invoke({ messages: [callAll({ name: "explode", args: {} })] });
    expect(texts(out)).toEqual(['Error: Tool "explode" not found.\n Please fix your mistakes.']);
  });

  it("bind fills the argument from the context, whatever the model sent", async () => {
    const g = await compile(specDoc(toolsSpec()));
    const out = await g.invoke(
      {
        messages: [callAll({ name: "account", args: { field: "plan", user_id: "someone-else" } })],
      },
      { context: { user_id: "u-42" } },
    );
    expect(texts(out)).toEqual(["plan of u-42"]);
  });
});

describe("what the model is shown", () => {
  it("a bound argument is not in the tool's schema; a plain function gets the spec's", async () => {
    const doc = specDoc(toolsSpec());
    const { ExprEnvironment } = await import("../../src/expr/index.js");
    const { moduleRefs, resolveRef, sharedIn } = await import("../../src/modules/index.js");
    const data = doc.data as never as Parameters<typeof moduleRefs>[0] & {
      state: unknown;
      context: unknown;
    };
    const refs = await Promise.all(
      moduleRefs(data).map((r) =>
        resolveRef({ specPath: doc.path, root: doc.root }, r, { shared: sharedIn(new Map()) }),
      ),
    );
    const ctx = new CompileContext(
      doc,
      data as never,
      ExprEnvironment.for(data as never),
      {},
      refs,
      async () => undefined,
    );
    const shown = (name: string) => convertToOpenAITool(ctx.tool(name)).function;
    expect(shown("account").parameters).toMatchObject({
      properties: { field: { type: "string" } },
      required: ["field"],
    });
    expect(Object.keys((shown("account").parameters as { properties: object }).properties)).toEqual(
      ["field"],
    );
    expect(shown("add")).toMatchObject({
      name: "add",
      description: "Add two numbers.",
      parameters: { required: ["a", "b"] },
    });
  });
});

describe("tool node", () => {
  const toolSpec = (node: string) => `version: 1
name: t
state:
  total: { type: number }
  failure: { type: any }
context:
  user_id: { type: string, default: u-1 }
${TOOLS}nodes:
  call: ${node}
edges:
  - { from: START, to: call }
  - { from: call, to: END }
`;

  it("calls the tool with templated args and writes its result", async () => {
    const g = await compile(
      specDoc(toolSpec("{ kind: tool, tool: add, args: { a: 2, b: 40 }, write: total }")),
    );
    expect(await g.invoke({})).toEqual({ total: 42 });
  });

  it("a failing tool is a tool-error naming the node and the tool", async () => {
    const g = await compile(specDoc(toolSpec("{ kind: tool, tool: explode }")));
    const e = await rejection(g.invoke({}));
    expect(e).toMatchObject({ name: "GraphspecRunError", code: "tool-error", node: "call" });
    expect(e.message).toBe("node `call`: tool `explode` failed: the tool blew up");
  });

  it("on_error sees the failure; the tool's own error type for refused arguments", async () => {
    const g = await compile(
      specDoc(
        toolSpec(
          '{ kind: tool, tool: add, args: { a: "${{ context.user_id }}", b: 1 }, on_error: { write: failure } }',
        ),
      ),
      { validate: false },
    );
    const out = await g.invoke({});
    expect(out.failure).toMatchObject({ type: "ToolInputParsingException", node: "call" });
    expect(out.failure.message).toMatch(
      /^node `call`: tool `add` refused its arguments: argument `a` must be a number, not the string "u-1"$/,
    );
  });

  it("refused arguments get the hint to fix `args`; the tool's own failure, to read its message", async () => {
    const refused = await rejection(
      (
        await compile(
          specDoc(
            toolSpec('{ kind: tool, tool: add, args: { a: "${{ context.user_id }}", b: 1 } }'),
          ),
          { validate: false },
        )
      ).invoke({}),
    );
    expect(refused.hint).toBe("give `args` that match the arguments of tool `add`");
    const failed = await rejection(
      (await compile(specDoc(toolSpec("{ kind: tool, tool: explode }")))).invoke({}),
    );
    expect(failed.hint).toBe("see the tool's own message above");
  });
});

describe("tool node against a hand-written node", () => {
  it("calls the tool like a node function calling it", async () => {
    const spec = `version: 1
name: t
state:
  total: { type: number }
  log: { type: array, items: { type: string }, reducer: append, default: [] }
context:
  user_id: { type: string, default: u-1 }
${TOOLS}nodes:
  call: { kind: tool, tool: add, args: { a: "\${{ size(state.log) }}", b: 40 }, write: { total: "\${{ result }}", log: added } }
edges:
  - { from: START, to: call }
  - { from: call, to: END }
`;
    const { add } = await import("../fixtures/compile/core/tools.js");
    const { Annotation } = await import("@langchain/langgraph");
    const State = Annotation.Root({
      total: Annotation<number>(),
      log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
    });
    const hand = new StateGraph(State)
      .addNode("call", (s) => ({ total: add({ a: s.log.length, b: 40 }), log: ["added"] }))
      .addEdge(START, "call")
      .addEdge("call", END)
      .compile({ checkpointer: new MemorySaver() });
    const compiled = await compile(specDoc(spec), { checkpointer: new MemorySaver() });
    const run = await expectSameRun(compiled, hand, { input: { log: ["x", "y"] } });
    expect(run.state).toEqual({ total: 42, log: ["x", "y", "added"] });
  });
});
