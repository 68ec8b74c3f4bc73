import { isObject } from "../../spec/data.js";
import { toolsNodesName } from "../../spec/named-tools.js";
import { mcpTools } from "../mcp-tools.js";
import type { Rule } from "../rule.js";

/**
 * A node named like a state channel: LangGraph's addNode throws, as both share one namespace.
 * And one tool name a node uses that two MCP servers give: which one runs would depend on
 * the order of `mcp_servers`.
 */
export const nameCollision: Rule = {
  name: "name-collision",
  async check(ctx) {
    const named = toolsNodesName(ctx.spec);
    for (const { tool, first } of (await mcpTools(ctx)).clashes) {
      const node = named.get(tool.name);
      if (node === undefined) continue;
      ctx.report("name-collision", tool.path, {
        message: `MCP servers \`${first}\` and \`${tool.server}\` both give a tool \`${tool.name}\`, which node \`${node}\` names: it could call either`,
        hint: `take it from one server only, or give each its own name with a \`tools:\` entry (\`${tool.server}_${tool.name}: { mcp: ${tool.server}, tool: ${tool.name} }\`)`,
        at: tool.at,
      });
    }
    const nodes = isObject(ctx.spec.nodes) ? ctx.spec.nodes : {};
    const state = isObject(ctx.spec.state) ? ctx.spec.state : {};
    for (const name of Object.keys(nodes)) {
      if (!Object.hasOwn(state, name)) continue;
      ctx.report("name-collision", ["nodes", name], {
        message: `node \`${name}\` has the same name as the state channel \`${name}\`: nodes and channels share one namespace in LangGraph`,
        hint: `rename the node, e.g. \`set_${name}\`, and the edges that name it`,
        at: "key",
      });
    }
  },
};
