import { didYouMean } from "../../diagnostics/suggest.js";
import { isObject } from "../../spec/data.js";
import type { CheckContext } from "../check-context.js";
import type { Rule } from "../rule.js";

const stringsAt = (list: unknown): [number, string][] =>
  Array.isArray(list)
    ? list.flatMap((v, i): [number, string][] => (typeof v === "string" ? [[i, v]] : []))
    : [];

function reportUndeclared(
  ctx: CheckContext,
  path: (string | number)[],
  tool: string,
  declared: string[],
): void {
  // With a catalog, `declared` holds its tools too (spec/catalog.ts): suggestions come from both.
  const catalog = ctx.doc.catalog?.doc.file;
  ctx.report("unknown-tool", path, {
    message: catalog
      ? `tool \`${tool}\` is declared neither in \`tools\` nor in the catalog \`${catalog}\``
      : `tool \`${tool}\` is not declared in \`tools\``,
    hint:
      didYouMean(tool, declared) ??
      `declare it under the top-level \`tools:\`${catalog ? " or in the catalog" : ""} with the \`module\` that exports it`,
  });
}

/** Every tool a node names (`tools`, `approve`, `tool`) is declared in the top-level `tools`. */
export const unknownTool: Rule = {
  name: "unknown-tool",
  check(ctx) {
    // Tools an MCP server gives under their own names count as declared; a server that gives
    // `all` has names validate cannot know without connecting (graphspec.lock.json records them).
    const servers = isObject(ctx.spec.mcp_servers) ? Object.values(ctx.spec.mcp_servers) : [];
    const fromServers = servers.flatMap((s) =>
      isObject(s) && Array.isArray(s.tools) ? s.tools.filter((t) => typeof t === "string") : [],
    );
    const takesAll = servers.some((s) => isObject(s) && s.tools === "all");
    const declared = [
      ...(isObject(ctx.spec.tools) ? Object.keys(ctx.spec.tools) : []),
      ...fromServers,
    ];
    const isDeclared = (t: string) =>
      takesAll || Object.hasOwn(ctx.spec.tools ?? {}, t) || fromServers.includes(t);
    for (const [name, node] of Object.entries(ctx.spec.nodes ?? {})) {
      if (!isObject(node)) continue;
      const nodeTools = stringsAt(node.tools);
      for (const [i, tool] of nodeTools) {
        if (!isDeclared(tool)) reportUndeclared(ctx, ["nodes", name, "tools", i], tool, declared);
      }
      for (const [i, tool] of stringsAt(node.approve)) {
        const path = ["nodes", name, "approve", i];
        if (!isDeclared(tool)) reportUndeclared(ctx, path, tool, declared);
        else if (!nodeTools.some(([, t]) => t === tool)) {
          ctx.report("unknown-tool", path, {
            message: `\`${tool}\` needs approval but is not one of this node's \`tools\`, so the agent can never call it`,
            hint: `add \`${tool}\` to \`tools\`, or remove it from \`approve\``,
          });
        }
      }
      if (node.kind === "tool" && typeof node.tool === "string" && !isDeclared(node.tool)) {
        reportUndeclared(ctx, ["nodes", name, "tool"], node.tool, declared);
      }
    }
  },
};
