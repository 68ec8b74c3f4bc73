import { LOCK_COMMAND, LOCK_FILE } from "../../modules/index.js";
import { isObject } from "../../spec/data.js";
import { mcpRecord } from "../mcp-tools.js";
import type { Rule } from "../rule.js";

const REFRESH = `run \`${LOCK_COMMAND}\` where the server is trusted (it starts or reaches it and lists its tools) and commit ${LOCK_FILE}`;

/**
 * Every MCP server the spec declares is recorded in `graphspec.lock.json` as it is declared now:
 * validate never starts or reaches a server, so without a current record the names and arguments
 * of its tools would be checked against nothing — or against an older server — and pass.
 */
export const mcpLock: Rule = {
  name: "mcp-lock",
  async check(ctx) {
    const servers = isObject(ctx.spec.mcp_servers) ? Object.keys(ctx.spec.mcp_servers) : [];
    for (const server of servers) {
      const r = await mcpRecord(ctx, server);
      if (r.state === "unread" || r.state === "current") continue;
      ctx.report("mcp-lock", ["mcp_servers", server], {
        message:
          r.state === "missing"
            ? `MCP server \`${server}\` is not recorded (${r.why}), so its tools' names and arguments cannot be checked`
            : `MCP server \`${server}\` is recorded, but ${r.why}, so its tools' names and arguments cannot be checked`,
        hint: REFRESH,
        at: "key",
      });
    }
  },
};
