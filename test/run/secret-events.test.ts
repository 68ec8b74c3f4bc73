/**
 * A run's events with its secrets masked (src/run/secret-events.ts), event by event: what each
 * kind masks and what it keeps (node and tool names, ids), and streamed text held back where a
 * secret could be starting, until the next piece, the node's end or the run's end tells. The
 * executor's tests see these through runs (test/security/secrets.test.ts); the kinds a run rarely
 * emits with a secret in them (a denied tool call, a tool's result, an interrupt) and the pieces'
 * boundaries are pinned here.
 */
import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../src/run/events.js";
import { scrubbedEvents } from "../../src/run/secret-events.js";
import { scrubber } from "../../src/spec/secrets.js";

const SECRET = "hunter22";
/** A sink over `secrets` and what it let through. */
function sink(secrets: string[] = [SECRET]) {
  const out: RunEvent[] = [];
  const s = scrubbedEvents((e) => out.push(e), scrubber(secrets));
  return { s, out };
}
const tokens = (out: RunEvent[]) =>
  out.map((e) => (e.type === "token" ? `${e.node}:${e.text}` : e.type));

describe("each kind of event", () => {
  it("masks what the run produced and keeps the names and ids it is addressed by", () => {
    const { s, out } = sink();
    const said = `pw=${SECRET}`;
    const events: RunEvent[] = [
      { type: "tool_call", node: SECRET, tool: SECRET, args: { q: said } },
      { type: "tool_denied", node: "n", tool: "t", args: [said], allowedTools: [SECRET] },
      { type: "tool_result", node: "n", tool: "t", output: said },
      { type: "interrupt", node: "n", id: SECRET, value: { ask: said } },
      { type: "custom", node: "n", name: SECRET, data: said },
      { type: "graph_chunk", mode: "updates", namespace: [SECRET], data: { n: said } },
      { type: "graph_event", event: { name: SECRET, data: { said } } },
      { type: "node_start", node: SECRET } as RunEvent,
    ];
    for (const e of events) s(e);
    expect(out).toEqual([
      { type: "tool_call", node: SECRET, tool: SECRET, args: { q: "pw=***" } },
      { type: "tool_denied", node: "n", tool: "t", args: ["pw=***"], allowedTools: [SECRET] },
      { type: "tool_result", node: "n", tool: "t", output: "pw=***" },
      { type: "interrupt", node: "n", id: SECRET, value: { ask: "pw=***" } },
      { type: "custom", node: "n", name: SECRET, data: "pw=***" },
      { type: "graph_chunk", mode: "updates", namespace: [SECRET], data: { n: "pw=***" } },
      { type: "graph_event", event: { name: "***", data: { said: "pw=***" } } },
      { type: "node_start", node: SECRET },
    ]);
  });

  it("without secrets, passes every event as it is, and flush does nothing", () => {
    const { s, out } = sink([]);
    const e: RunEvent = { type: "token", node: "n", text: "hunt" };
    s(e);
    s.flush();
    expect(out).toEqual([e]);
    expect(out[0]).toBe(e);
  });
});

describe("streamed tokens", () => {
  it("hold back a piece that could start a secret, and mask the secret once it is whole", () => {
    const { s, out } = sink();
    s({ type: "token", node: "n", text: "my pw is hun" });
    expect(tokens(out)).toEqual(["n:my pw is "]);
    s({ type: "token", node: "n", text: "ter22, ok" });
    expect(tokens(out)).toEqual(["n:my pw is ", "n:***, ok"]);
  });

  it("let held text through when it turns out not to be a secret", () => {
    const { s, out } = sink();
    s({ type: "token", node: "n", text: "hunt" });
    s({ type: "token", node: "n", text: "ing" });
    expect(tokens(out)).toEqual(["n:hunting"]);
  });

  it("hold back the longest end that starts any secret", () => {
    const { s, out } = sink(["abcdef", "xxabcq"]);
    s({ type: "token", node: "n", text: "1 xxabc" });
    // `xxabc` starts the second secret; `abc`, a shorter end, starts the first.
    expect(tokens(out)).toEqual(["n:1 "]);
    s({ type: "token", node: "n", text: "def" });
    expect(tokens(out)).toEqual(["n:1 ", "n:xx***"]);
  });

  it("never hold a whole secret's length: a finished secret is masked, not held", () => {
    const { s, out } = sink();
    s({ type: "token", node: "n", text: SECRET });
    expect(tokens(out)).toEqual(["n:***"]);
  });

  it("are held per node: another node's tokens do not release them", () => {
    const { s, out } = sink();
    s({ type: "token", node: "a", text: "x hunt" });
    s({ type: "token", node: "b", text: "er22" });
    expect(tokens(out)).toEqual(["a:x ", "b:er22"]);
    s({ type: "token", node: "a", text: "er22" });
    expect(tokens(out)).toEqual(["a:x ", "b:er22", "a:***"]);
  });

  it("are let through at the node's own end, before that event", () => {
    const { s, out } = sink();
    s({ type: "token", node: "a", text: "x hunt" });
    s({ type: "token", node: "b", text: "y hu" });
    s({ type: "node_end", node: "b" });
    expect(tokens(out)).toEqual(["a:x ", "b:y ", "b:hu", "node_end"]);
    s({ type: "node_end", node: "a" });
    expect(tokens(out)).toEqual(["a:x ", "b:y ", "b:hu", "node_end", "a:hunt", "node_end"]);
    // Nothing held: the node's end emits no empty token.
    s({ type: "node_end", node: "a" });
    expect(tokens(out).slice(-1)).toEqual(["node_end"]);
  });

  it("are not let through by the node's other events", () => {
    const { s, out } = sink();
    s({ type: "token", node: "a", text: "x hun" });
    s({ type: "tool_call", node: "a", tool: "t", args: {} });
    s({ type: "custom", node: "a", data: 1 });
    expect(tokens(out)).toEqual(["a:x ", "tool_call", "custom"]);
  });

  it("are let through when the run ends (flush), per node", () => {
    const { s, out } = sink();
    s({ type: "token", node: "a", text: "hun" });
    s({ type: "token", node: "b", text: "hunter" });
    s.flush();
    expect(tokens(out)).toEqual(["a:hun", "b:hunter"]);
    s.flush();
    expect(out).toHaveLength(2);
  });
});

describe("LangGraph `messages` chunks", () => {
  const chunk = (id: unknown, content: unknown, node = "agent", extra: object = {}): RunEvent => ({
    type: "graph_chunk",
    mode: "messages",
    namespace: ["ns"],
    data: [
      { id, content, type: "AIMessageChunk", ...extra },
      { langgraph_node: node, note: SECRET },
    ],
  });
  const contents = (out: RunEvent[]) =>
    out.map((e) =>
      e.type === "graph_chunk" ? (e.data as [{ content: string }])[0].content : e.type,
    );

  it("hold a message's text back per message, and mask the rest of the chunk", () => {
    const { s, out } = sink();
    s(chunk("m1", "key: hunt", "agent", { name: SECRET }));
    expect(out).toEqual([
      {
        type: "graph_chunk",
        mode: "messages",
        namespace: ["ns"],
        data: [
          { id: "m1", content: "key: ", type: "AIMessageChunk", name: "***" },
          { langgraph_node: "agent", note: "***" },
        ],
      },
    ]);
    s(chunk("m2", "hunter"));
    s(chunk("m1", "er22!"));
    expect(contents(out)).toEqual(["key: ", "", "***!"]);
  });

  it("let a message's held text through as one more chunk at its node's end", () => {
    const { s, out } = sink();
    s(chunk("m1", "a hun", "agent"));
    s(chunk("m2", "b hun", "other"));
    s({ type: "node_end", node: "agent" });
    expect(contents(out)).toEqual(["a ", "b ", "hun", "node_end"]);
    const released = out[2] as RunEvent & { type: "graph_chunk" };
    expect(released).toMatchObject({ mode: "messages", namespace: ["ns"] });
    expect(released.data).toEqual([
      { id: "m1", content: "hun", type: "AIMessageChunk" },
      { langgraph_node: "agent", note: "***" },
    ]);
    s.flush();
    expect(contents(out)).toEqual(["a ", "b ", "hun", "node_end", "hun"]);
    s.flush();
    expect(out).toHaveLength(5);
  });

  it("at its node's end, a message that holds nothing gets no empty chunk", () => {
    const { s, out } = sink();
    s(chunk("m1", "all said", "agent"));
    s({ type: "node_end", node: "agent" });
    s.flush();
    expect(contents(out)).toEqual(["all said", "node_end"]);
  });

  it("hold back nothing of a message without an id, nor of chunks of other stream modes", () => {
    const { s, out } = sink();
    s(chunk(undefined, "x hun"));
    s({
      type: "graph_chunk",
      mode: "custom",
      namespace: [],
      data: [{ id: "m1", content: "y hun" }, { langgraph_node: "agent" }],
    });
    expect(contents(out)).toEqual(["x hun", "y hun"]);
  });

  it("pass chunks that are not text of an identified message through the general masking", () => {
    const { s, out } = sink();
    s(chunk(undefined, `x ${SECRET}`));
    s(chunk("m1", [{ type: "text", text: SECRET }]));
    s({ type: "graph_chunk", mode: "messages", namespace: [], data: "hunter22" });
    s({ type: "graph_chunk", mode: "messages", namespace: [], data: [null, {}] });
    s({ type: "graph_chunk", mode: "messages", namespace: [], data: [`hun`, {}] });
    expect(out.map((e) => (e as { data: unknown }).data)).toEqual([
      [
        { id: undefined, content: "x ***", type: "AIMessageChunk" },
        { langgraph_node: "agent", note: "***" },
      ],
      [
        { id: "m1", content: [{ type: "text", text: "***" }], type: "AIMessageChunk" },
        { langgraph_node: "agent", note: "***" },
      ],
      "***",
      [null, {}],
      ["hun", {}],
    ]);
    // Nothing was held back.
    s.flush();
    expect(out).toHaveLength(5);
  });
});

describe("raw on_chat_model_stream events", () => {
  const stream = (runId: unknown, content: unknown): RunEvent => ({
    type: "graph_event",
    event: {
      event: "on_chat_model_stream",
      run_id: runId,
      name: "model",
      data: { chunk: { content, extra: SECRET } },
    },
  });
  const contents = (out: RunEvent[]) =>
    out.map((e) =>
      e.type === "graph_event"
        ? ((e.event.data as { chunk?: { content?: unknown } }).chunk?.content ?? e.event.event)
        : e.type,
    );

  it("hold text back per model call, masking the rest of the event", () => {
    const { s, out } = sink();
    s(stream("r1", "the key hunt"));
    expect(out).toEqual([
      {
        type: "graph_event",
        event: {
          event: "on_chat_model_stream",
          run_id: "r1",
          name: "model",
          data: { chunk: { content: "the key ", extra: "***" } },
        },
      },
    ]);
    s(stream("r2", "hunt"));
    s(stream("r1", "er22 done"));
    expect(contents(out)).toEqual(["the key ", "", "*** done"]);
  });

  it("let a call's held text through at its on_chat_model_end, before that event", () => {
    const { s, out } = sink();
    s(stream("r1", "a hun"));
    s(stream("r2", "b hun"));
    s({ type: "graph_event", event: { event: "on_chat_model_end", run_id: "r1", data: {} } });
    expect(contents(out)).toEqual(["a ", "b ", "hun", "on_chat_model_end"]);
    expect((out[2] as RunEvent & { type: "graph_event" }).event).toEqual({
      event: "on_chat_model_stream",
      run_id: "r1",
      name: "model",
      data: { chunk: { content: "hun", extra: "***" } },
    });
    s.flush();
    expect(contents(out)).toEqual(["a ", "b ", "hun", "on_chat_model_end", "hun"]);
    s.flush();
    expect(out).toHaveLength(5);
  });

  it("at its on_chat_model_end, a call that holds nothing gets no empty event", () => {
    const { s, out } = sink();
    s(stream("r1", "all said"));
    s({ type: "graph_event", event: { event: "on_chat_model_end", run_id: "r1", data: {} } });
    s.flush();
    expect(contents(out)).toEqual(["all said", "on_chat_model_end"]);
  });

  it("pass other events through the general masking, holding nothing", () => {
    const { s, out } = sink();
    s(stream(undefined, "hun"));
    s(stream(7, "hun"));
    s(stream("r1", [{ text: "hun" }]));
    s({ type: "graph_event", event: { event: "on_chat_model_stream", run_id: "r1", data: "hun" } });
    s({
      type: "graph_event",
      event: { event: "on_chain_stream", run_id: "r1", data: { chunk: { content: "hun" } } },
    });
    s({
      type: "graph_event",
      event: { event: "on_chat_model_end", run_id: "r9", data: { said: SECRET } },
    });
    expect(contents(out)).toEqual([
      "hun",
      "hun",
      [{ text: "hun" }],
      "on_chat_model_stream",
      "hun",
      "on_chat_model_end",
    ]);
    expect((out[5] as RunEvent & { type: "graph_event" }).event.data).toEqual({ said: "***" });
    s.flush();
    expect(out).toHaveLength(6);
  });
});
