/**
 * `tool`: one call of one tool with arguments computed from the state (no model involved). The
 * tool's return value is `result` in `write`. A tool that fails — its arguments refused by its
 * schema, or its own error — fails the node with a `tool-error` naming the node and the tool.
 */
import { isCommand } from "@langchain/langgraph";
import { T } from "../../expr/index.js";
import type { ToolNode } from "../../spec/spec-types.generated.js";
import { argumentsRefused, refusedArguments } from "../arguments-refused.js";
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
      // The tool's code may call a model without passing the config on (run-usage.ts).
      userCode: true,
      run: async ({ state, vars, config }) => {
        let result: unknown;
        const given = args(vars) as Record<string, unknown>;
        try {
          // The tool's runtime, as a ToolNode gives it: the run's config with the state.
          result = await tool.invoke(given, {
            ...config,
            state,
          } as never);
        } catch (e) {
          if (e instanceof GraphspecRunError) throw e;
          const refused = argumentsRefused(e);
          const message = refused
            ? `refused its arguments: ${refusedArguments(tool.schema, given, e)}`
            : `failed: ${String((e as Error)?.message ?? e).split("\n")[0]}`;
          throw new GraphspecRunError(
            "tool-error",
            `node \`${name}\`: tool \`${node.tool}\` ${message}`,
            {
              node: name,
              hint: refused
                ? `give \`args\` that match the arguments of tool \`${node.tool}\``
                : "see the tool's own message above",
              cause: e,
            },
          );
        }
        if (isCommand(result)) {
          // A Command updates the state itself (through the write guard); `write` has no result to read.
          if (
            write ||
            (result.goto !== undefined && (!Array.isArray(result.goto) || result.goto.length)) ||
            result.graph
          ) {
            throw new GraphspecRunError(
              "tool-error",
              `node \`${name}\`: tool \`${node.tool}\` returned a Command${write ? ", and the node has a `write`" : " that does more than update the state"}`,
              {
                node: name,
                hint: write
                  ? "drop the node's `write` (the Command's update is written), or return a plain result"
                  : "return `new Command({ update: { … } })` and route with the spec's edges",
              },
            );
          }
          return result;
        }
        return write ? write({ ...vars, result }) : {};
      },
    };
  },
};
