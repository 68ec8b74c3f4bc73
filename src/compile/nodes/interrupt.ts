/**
 * `interrupt`: pauses the run with `payload` (LangGraph's `interrupt()`); the value the run is
 * resumed with is `resume`, checked against `schema` and written by `write`.
 *
 * A resume value that does not match `schema` is refused by asking again: the node calls
 * `interrupt()` once more, with the payload and what was wrong, so the run stays paused and the
 * next resume is checked in turn. LangGraph hands a node's resume values to its `interrupt()`
 * calls in call order, so a re-run of the node replays the refused values and stops at the first
 * one that matches.
 */
import { type InterruptOptions, interrupt } from "@langchain/langgraph";
import { T, typeFromSchema } from "../../expr/index.js";
import { isObject } from "../../spec/data.js";
import type { InterruptNode } from "../../spec/spec-types.generated.js";
import { GraphspecRunError } from "../graphspec-run-error.js";
import type { NodeKind } from "../node-kind.js";
import { valueCheck } from "../value-check.js";
import { compileValue, compileWrite } from "../values.js";

/** Why a resume value was refused, as the person sees it beside the payload. */
export interface RefusedResume {
  message: string;
  hint: string;
  /** The value that was refused. */
  resume: unknown;
}

/** The interrupt value after a refused resume: the payload, and what was wrong with the answer. */
export interface RefusedInterrupt {
  payload: unknown;
  error: RefusedResume;
}

/** LangGraph's `interrupt()`, with its missing-checkpointer error in graphspec's terms. */
function ask(name: string, value: unknown, options: InterruptOptions | undefined): unknown {
  try {
    return interrupt(value, options);
  } catch (e) {
    if ((e as { lc_error_code?: unknown })?.lc_error_code !== "MISSING_CHECKPOINTER") throw e;
    throw new GraphspecRunError(
      "no-checkpointer",
      `node \`${name}\` pauses the run for a person, which needs a checkpointer to keep the paused run`,
      {
        node: name,
        hint: "compile with a checkpointer, e.g. `compile(spec, { checkpointer: new MemorySaver() })`, and run with a `thread_id`",
        cause: e,
      },
    );
  }
}

export const interruptKind: NodeKind<InterruptNode> = {
  lower(name, node, ctx) {
    const payload = compileValue(
      ctx.values(name),
      ["nodes", name, "payload"],
      node.payload ?? null,
      ctx.expr.scope(`the \`payload\` of node \`${name}\``),
    );
    const check = node.schema === undefined ? undefined : valueCheck(node.schema);
    // Clients (LangGraph Studio, agent UIs) render a form from the interrupt's `response_schema`.
    const options = isObject(node.schema) ? { responseSchema: node.schema } : undefined;
    const resumeType = node.schema === undefined ? T.dyn : typeFromSchema(node.schema, "Resume");
    const write =
      node.write === undefined
        ? undefined
        : compileWrite(
            ctx.values(name),
            ["nodes", name, "write"],
            node.write,
            ctx.expr.scope(`the \`write\` of node \`${name}\``, { resume: resumeType }),
            "resume",
          );

    return {
      callsModels: false,
      run: ({ vars }) => {
        const shown = payload(vars);
        let refused: RefusedResume | undefined;
        for (;;) {
          const asked: unknown = refused
            ? ({ payload: shown, error: refused } satisfies RefusedInterrupt)
            : shown;
          const resume: unknown = ask(name, asked, options);
          const problems = check?.(resume, "resume") ?? [];
          if (!problems.length) return write ? write({ ...vars, resume }) : {};
          refused = {
            message: `the resume value was refused: ${problems.map((p) => p.message).join("; ")}`,
            hint:
              problems.find((p) => p.hint)?.hint ??
              `resume again with a value that matches the \`schema\` of node \`${name}\``,
            resume,
          };
        }
      },
    };
  },
};
