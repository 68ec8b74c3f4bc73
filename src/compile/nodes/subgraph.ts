/**
 * `subgraph`: another spec, compiled once and invoked inside this node with the node's config.
 * Invoked that way, LangGraph runs it as a subgraph: its checkpoints live under this node's
 * namespace, an interrupt inside it pauses the parent run and the resume goes back into it, and
 * `stream(…, { subgraphs: true })` shows its steps. It runs with the parent's context.
 *
 * What crosses: `input` (child channel ← template over the parent's state and context; default:
 * every channel both declare, as far as the child's `input` list takes it) and `output` (parent
 * channel ← template over `output`, the child's final state; default: every channel both
 * declare, as far as the child's `output` list gives it, written through the parent's reducers).
 */
import { relative, sep } from "node:path";
import { isGraphBubbleUp, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { T } from "../../expr/index.js";
import { resolveGraphRef } from "../../modules/index.js";
import { loadSpec } from "../../spec/load.js";
import type { GraphSpec, SubgraphNode } from "../../spec/spec-types.generated.js";
import { collidingWriters } from "../colliding-writers.js";
import type { CompileContext } from "../compile-context.js";
import { CompileError } from "../compile-error.js";
import { exprValue } from "../expr-view.js";
import { failedNodeOf } from "../failed-node.js";
import type { LoweredNode, NodeCall, NodeKind } from "../node-kind.js";
import type { SpecGraph } from "../spec-graph.js";
import { SubgraphFailure } from "../subgraph-failure.js";
import { compileValue, locationOf } from "../values.js";

type Values = Record<string, unknown>;

/** The child spec: its file, compiled graph and declarations. */
interface Child {
  /** The file as messages name it: relative to the project root. */
  file: string;
  graph: SpecGraph;
  spec: GraphSpec;
}

async function loadChild(name: string, node: SubgraphNode, ctx: CompileContext): Promise<Child> {
  const path = ["nodes", name, "graph"];
  const resolved = await resolveGraphRef(
    { specPath: ctx.doc.path, root: ctx.doc.root },
    { node: name, graph: node.graph, path },
  );
  if (!resolved.abs) {
    // validate() reports these before compiling; reaching here means it was skipped.
    throw new CompileError(
      `${locationOf(ctx.doc, path)}: node \`${name}\`: ${resolved.problem?.message ?? `cannot find the subgraph \`${node.graph}\``}`,
    );
  }
  const abs = resolved.abs;
  const file = relative(ctx.doc.root, abs).split(sep).join("/");
  try {
    const graph = (await ctx.compileChild(abs)) as SpecGraph;
    const spec = (await loadSpec(abs, { root: ctx.doc.root, file })).data as GraphSpec;
    return { file, graph, spec };
  } catch (e) {
    const err = e as Error & { diagnostics?: CompileError["diagnostics"] };
    throw new CompileError(
      `${locationOf(ctx.doc, path)}: node \`${name}\`: the subgraph \`${file}\` cannot be compiled: ${err.message}`,
      err.diagnostics ?? [],
    );
  }
}

/** The parent's channel values for the child, by name. */
function inputMapping(
  name: string,
  node: SubgraphNode,
  ctx: CompileContext,
  child: Child,
): (call: NodeCall) => Values {
  const takes = child.spec.input ?? Object.keys(child.spec.state);
  if (node.input === undefined) {
    const shared = takes.filter((k) => Object.hasOwn(ctx.spec.state, k));
    return ({ state }) => pick(state, shared);
  }
  const accepted = new Set(takes);
  for (const key of Object.keys(node.input)) {
    if (accepted.has(key)) continue;
    const declared = Object.hasOwn(child.spec.state, key);
    throw new CompileError(
      `${locationOf(ctx.doc, ["nodes", name, "input", key])}: node \`${name}\` passes \`${key}\` to the subgraph \`${child.file}\`, which ${declared ? "does not take it as input (its `input` list leaves it out)" : "has no such state channel"}`,
    );
  }
  const evaluate = compileValue(
    ctx.values(name),
    ["nodes", name, "input"],
    node.input,
    ctx.expr.scope(`the \`input\` of node \`${name}\``),
  );
  return ({ vars }) => evaluate(vars) as Values;
}

/** The parent's update from `output`, the child's final state. */
function outputMapping(
  name: string,
  node: SubgraphNode,
  ctx: CompileContext,
  child: Child,
): (output: Values, call: NodeCall) => Values {
  if (node.output === undefined) {
    const gives = child.spec.output ?? Object.keys(child.spec.state);
    const shared = gives.filter((k) => Object.hasOwn(ctx.spec.state, k));
    return (output) => pick(output, shared);
  }
  const evaluate = compileValue(
    ctx.values(name),
    ["nodes", name, "output"],
    node.output,
    ctx.expr.scope(`the \`output\` of node \`${name}\``, { output: T.dyn }),
  );
  return (raw, { vars }) => {
    // Expressions see the child's messages as Message records, like the parent's.
    const output: Values = {};
    for (const [k, v] of Object.entries(raw)) output[k] = exprValue(v);
    return evaluate({ ...vars, output }) as Values;
  };
}

/** The keys of `values` that are set, among `keys`. */
function pick(values: Values, keys: readonly string[]): Values {
  const out: Values = {};
  for (const k of keys) if (values[k] !== undefined) out[k] = values[k];
  return out;
}

export const subgraphKind: NodeKind<SubgraphNode> = {
  async lower(name, node, ctx) {
    const child = await loadChild(name, node, ctx);
    const input = inputMapping(name, node, ctx, child);
    const output = outputMapping(name, node, ctx, child);
    // The child's own `limits.recursion` bounds its steps; without one it inherits the parent's.
    const ownLimit = child.spec.limits?.recursion !== undefined;
    const lowered: LoweredNode & { subgraphs: unknown[] } = {
      // Lets LangGraph find the child under this node: getState({ subgraphs: true }), drawing.
      subgraphs: [child.graph],
      run: async (call) => {
        const values = input(call);
        const config: LangGraphRunnableConfig = { ...call.config, context: call.context };
        if (ownLimit) delete config.recursionLimit;
        let final: Values;
        try {
          // LangGraph gives `undefined` for a child that wrote none of its output channels: by
          // the docs that is a final state without them, so nothing is copied back.
          final = ((await child.graph.invoke(values, config)) as Values | undefined) ?? {};
        } catch (e) {
          // Interrupts (and commands for the parent) travel up as LangGraph means them to.
          if (isGraphBubbleUp(e)) throw e;
          throw new SubgraphFailure(name, child.file, e, {
            childNode: failedNodeOf(e),
            writers: await collidingWriters(child.graph, config, e),
          });
        }
        return output(final, call);
      },
    };
    return lowered;
  },
};
