import { isObject } from "../../spec/data.js";
import type { Rule } from "../rule.js";

/** What is wrong with a node name and how to fix it; undefined for a good name. */
function problem(name: string): { message: string; hint: string } | undefined {
  const keyword = name.toUpperCase();
  if (keyword === "START" || keyword === "END") {
    // Any case: a node `end` next to the keyword `END` turns a typo into a silent wrong edge.
    return {
      message:
        name === keyword
          ? `\`${name}\` is reserved: it is where a run ${keyword === "START" ? "begins" : "ends"}, not a node`
          : `\`${name}\` is reserved: it reads like the keyword \`${keyword}\``,
      hint: `rename the node, e.g. \`${keyword === "START" ? "begin" : "finish"}\``,
    };
  }
  if (name === "__start__" || name === "__end__") {
    const keyword = name === "__start__" ? "START" : "END";
    return {
      message: `\`${name}\` is reserved: it is LangGraph's own id for ${keyword}`,
      hint: `rename the node, e.g. \`${keyword === "START" ? "begin" : "finish"}\``,
    };
  }
  if (name.startsWith("__")) {
    const plain = name.replace(/^_+|_+$/g, "") || "node";
    return {
      message: `\`${name}\` is reserved: names starting with \`__\` belong to LangGraph (\`__start__\`, \`__error_handler__<node>\`, ...)`,
      hint: `rename the node, e.g. \`${plain}\``,
    };
  }
  const char = [":", "|"].find((c) => name.includes(c));
  if (char) {
    return {
      message: `\`${name}\` contains \`${char}\`, which LangGraph reserves for its channel names`,
      hint: `rename the node, e.g. \`${name.replace(/[:|]/g, "_")}\``,
    };
  }
  return undefined;
}

/**
 * LangGraph keeps channels of its own beside the state's, all named `__…` (`__start__`,
 * `__interrupt__`, `__resume__`, `__error__`, `__return__`, `__pregel_tasks`, …): a state channel
 * by one of those names is refused, or its writes are silently taken as LangGraph's.
 */
function channelProblem(name: string): { message: string; hint: string } | undefined {
  if (!name.startsWith("__")) return undefined;
  const plain = name.replace(/^_+|_+$/g, "") || "value";
  return {
    message: `\`${name}\` is reserved: channel names starting with \`__\` belong to LangGraph (\`__start__\`, \`__interrupt__\`, \`__pregel_tasks\`, ...)`,
    hint: `rename the channel, e.g. \`${plain}\`, and the writes and expressions that name it`,
  };
}

/** Node and state channel names LangGraph rejects or takes for its own, or that could be read as START / END. */
export const reservedName: Rule = {
  name: "reserved-name",
  check(ctx) {
    const nodes = isObject(ctx.spec.nodes) ? ctx.spec.nodes : {};
    for (const name of Object.keys(nodes)) {
      const found = problem(name);
      if (found) ctx.report("reserved-name", ["nodes", name], { ...found, at: "key" });
    }
    const state = isObject(ctx.spec.state) ? ctx.spec.state : {};
    for (const name of Object.keys(state)) {
      const found = channelProblem(name);
      if (found) ctx.report("reserved-name", ["state", name], { ...found, at: "key" });
    }
  },
};
