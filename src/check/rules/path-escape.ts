import { dirname, resolve } from "node:path";
import { isObject } from "../../spec/data.js";
import { isInside } from "../../spec/inside-root.js";
import { reportRefProblems } from "../module-refs.js";
import type { Rule } from "../rule.js";

/**
 * A module or graph path leaves the project root (lexically, or through a symbolic link), or an
 * MCP server's `cwd` does (lexically: the folder need not exist until the server starts).
 */
export const pathEscape: Rule = {
  name: "path-escape",
  check: (ctx) => {
    reportRefProblems(ctx, "path-escape");
    const servers = isObject(ctx.spec.mcp_servers) ? ctx.spec.mcp_servers : {};
    for (const [name, server] of Object.entries(servers)) {
      const cwd = isObject(server) ? server.cwd : undefined;
      if (typeof cwd !== "string" || isInside(ctx.doc.root, resolve(dirname(ctx.doc.path), cwd)))
        continue;
      ctx.report("path-escape", ["mcp_servers", name, "cwd"], {
        message: `MCP server \`${name}\` starts in \`${cwd}\`, outside the project root`,
        hint: "give a folder inside the project, relative to the spec file",
      });
    }
  },
};
