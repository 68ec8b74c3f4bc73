/**
 * `tool`: one call of one tool with arguments computed from the state (no model involved). The
 * tool's return value is `result` in `write`. A tool that fails — its arguments refused by its
 * schema, or its own error — fails the node with a `tool-error` naming the node and the tool.
 */
import { T } from "../../expr/index.js";
import type { ToolNode } from "../../spec/spec-types.generated.js";
import { GraphspecRunError } from "../graphspec-run-error.js";
import type { NodeKind } from "../node-kind.js";
import { compileValue, compileWrite } from "../values.js";

export const toolKind: NodeKind<ToolNode> = {
  lower(name, node, ctx) {
    const tool = ctx.tool(node.tool);
    const values = ctx.values(name);
    const args = compileValue(
      values,
      ["nodes", name, "args"],
      node.args ?? {},
      ctx.expr.scope(`the \`args\` of node \`${name}\``),
    );
    const write =
      node.write === undefined
        ? undefined
        : compileWrite(
            values,
            ["nodes", name, "write"],
            node.write,
            ctx.expr.scope(`the \`write\` of node \`${name}\``, { result: T.dyn }),
            "result",
          );
    return {
      run: async ({ vars, config }) => {
        let result: unknown;
        try {
          result = await tool.invoke(args(vars) as Record<string, unknown>, config);
        } catch (e) {
          if (e instanceof GraphspecRunError) throw e;
          const message = String((e as Error)?.message ?? e).split("\n")[0];
          throw new GraphspecRunError(
            "tool-error",
            `node \`${name}\`: tool \`${node.tool}\` failed: ${message}`,
            {
              node: name,
              hint:
                (e as Error)?.name === "ToolInputParsingException"
                  ? `give \`args\` that match the arguments of tool \`${node.tool}\``
                  : "see the tool's own message above",
              cause: e,
            },
          );
        }
        return write ? write({ ...vars, result }) : {};
      },
    };
  },
};
