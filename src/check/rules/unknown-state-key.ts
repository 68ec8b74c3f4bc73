import { suggest } from "../../diagnostics/suggest.js";
import { asObject as obj } from "../../spec/data.js";
import type { Path } from "../../spec/source-map.js";
import { expressionFindings } from "../expressions/per-document.js";
import type { Rule } from "../rule.js";

/**
 * A state key that is not declared: read in an expression (`state.X`, `context.X`), written
 * (`write`, `set.values`, `subgraph.output`, `map.with`, function `writes`, `on_error.write`),
 * or listed in `input`/`output`. LangGraph silently drops writes to keys that are not channels,
 * so each of these would lose data without a word. Also: an llm or agent node with no `write`
 * in a graph without a `messages` channel has nowhere to put its answer, and a `tools` node there
 * has no tool calls to run.
 */
export const unknownStateKey: Rule = {
  name: "unknown-state-key",
  check(ctx) {
    for (const f of expressionFindings(ctx)) {
      if (f.rule === "unknown-state-key") ctx.report(f.rule, f.path, f);
    }
    const state = obj(ctx.spec.state) ?? {};
    const channels = Object.keys(state);
    /** `at: "key"` reports at the key (`{ key: value }`); otherwise at the value (`[key]`, `write: key`). */
    const unknown = (path: Path, key: unknown, what: string, at?: "key") => {
      if (typeof key !== "string" || Object.hasOwn(state, key)) return;
      ctx.report("unknown-state-key", path, {
        message: `${what} \`${key}\`, which is not a state channel`,
        hint: suggest(key, channels) ?? `declare \`${key}\` under \`state\``,
        at,
      });
    };
    /** `write: channel` or `write: { channel: value }`. */
    const writes = (path: Path, write: unknown, who: string) => {
      if (typeof write === "string") unknown(path, write, `${who} writes`);
      else
        for (const key of Object.keys(obj(write) ?? {}))
          unknown([...path, key], key, `${who} writes`, "key");
    };

    for (const list of ["input", "output"] as const) {
      const keys = ctx.spec[list];
      if (!Array.isArray(keys)) continue;
      for (const [i, key] of keys.entries()) unknown([list, i], key, `\`${list}\` lists`);
    }

    const hasMessages = Object.hasOwn(state, "messages");
    // LLM, agent and tools nodes read and append LangChain messages there: a list of anything
    // else fails at the first call (ToolNode and the model refuse it).
    const messagesField = obj(state.messages);
    const messagesDeclared =
      !hasMessages || messagesField?.type === "messages" || messagesField?.reducer === "messages"
        ? undefined
        : `${messagesField?.type === undefined ? "declared" : `\`type: ${String(messagesField.type)}\``}${messagesField?.reducer === undefined ? "" : ` with \`reducer: ${String(messagesField.reducer)}\``}`;
    const notMessages = (name: string, what: string, orElse: string) =>
      ctx.report("unknown-state-key", ["nodes", name], {
        message: `node \`${name}\` ${what} the \`messages\` channel, which is ${messagesDeclared}, not a channel of messages`,
        hint: `declare it \`messages: { type: messages }\`${orElse}`,
        at: "key",
      });
    for (const [name, node] of Object.entries(obj(ctx.spec.nodes) ?? {})) {
      const n = obj(node);
      if (!n) continue;
      const who = `node \`${name}\``;
      const at = (...p: (string | number)[]): Path => ["nodes", name, ...p];
      writes(at("write"), n.write, who);
      writes(at("on_error", "write"), obj(n.on_error)?.write, `the \`on_error\` of ${who}`);
      if (n.kind === "set") writes(at("values"), n.values, who);
      if (n.kind === "subgraph") writes(at("output"), n.output, who);
      if (n.kind === "function" && Array.isArray(n.writes)) {
        for (const [i, key] of n.writes.entries()) {
          unknown(at("writes", i), key, `${who} declares it writes`);
        }
      }
      if ((n.kind === "llm" || n.kind === "agent") && n.write === undefined && !hasMessages) {
        ctx.report("unknown-state-key", at(), {
          message: `node \`${name}\` has nowhere to write: add \`write\` or a \`messages\` channel`,
          hint: "e.g. `state: { messages: { type: messages } }`, or `write: answer` with an `answer` channel",
          at: "key",
        });
      }
      if (messagesDeclared && (n.kind === "llm" || n.kind === "agent") && n.write === undefined)
        notMessages(name, "appends its answer to", ", or give the node a `write` of its own");
      if (messagesDeclared && n.kind === "tools") notMessages(name, "runs the tool calls in", "");
      if (n.kind === "tools" && !hasMessages) {
        ctx.report("unknown-state-key", at(), {
          message: `tools node \`${name}\` needs a \`messages\` channel: it runs the tool calls of the last AI message there and appends the results`,
          hint: "add `messages: { type: messages }` under `state`",
          at: "key",
        });
      }
    }

    const edges = Array.isArray(ctx.spec.edges) ? ctx.spec.edges : [];
    edges.forEach((edge, i) => {
      const map = obj(obj(edge)?.map);
      for (const key of Object.keys(obj(map?.with) ?? {})) {
        unknown(["edges", i, "map", "with", key], key, "`map.with` sets", "key");
      }
    });
  },
};
