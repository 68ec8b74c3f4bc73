/**
 * Edges onto LangGraph: `to` (static, fan-out, join), `route` (CEL cases, first match), `router`
 * (a function of the user's with declared targets) and `map` (one `Send` per item). A `route`,
 * `router` or `map` from a list of nodes means "join, then decide": LangGraph has no waiting
 * conditional edge, so it is lowered to a pass-through node `__join_<edge index>` that the sources
 * join into and the decision leaves from.
 *
 * A node with `on_error` but no `goto` continues along its own edges after a failure: LangGraph
 * runs the error handler as a node of its own (`__error_handler__<node>`), so every edge leaving
 * such a node also leaves its handler (and a join accepts either of them).
 */
import { type LangGraphRunnableConfig, Send, START } from "@langchain/langgraph";
import type { Edge } from "../spec/spec-types.generated.js";
import type { CompileContext } from "./compile-context.js";
import { exprState } from "./expr-view.js";
import type { Decide, GraphBuilder } from "./graph-builder.js";
import { GraphspecRunError } from "./graphspec-run-error.js";
import { preview } from "./preview.js";
import { compileCel, compileValue } from "./values.js";

const list = (v: string | readonly string[]): readonly string[] =>
  typeof v === "string" ? [v] : v;

export const joinNodeName = (edgeIndex: number): string => `__join_${edgeIndex}`;

function describeSource(from: Edge["from"]): string {
  return typeof from === "string" ? `\`${from}\`` : from.map((f) => `\`${f}\``).join(" + ");
}

function routeDecider(edge: Edge, index: number, ctx: CompileContext, source: string): Decide {
  const cases = (edge.route ?? []).map((c, j) => {
    if (c.default !== undefined) return { when: undefined, to: ctx.target(c.default) };
    const when = compileCel(
      ctx.values(undefined),
      ["edges", index, "route", j, "when"],
      String(c.when),
      ctx.expr.scope("a route's `when`"),
    );
    return { when, to: ctx.target(String(c.to)) };
  });
  return (state, config) => {
    const vars = {
      state: exprState(state, ctx.messageChannels),
      context: ctx.resolveContext(config?.context),
    };
    for (const c of cases) if (!c.when || c.when(vars) === true) return c.to;
    throw new GraphspecRunError(
      "route-no-match",
      `no case of the route from ${describeSource(edge.from)} matched, and the route has no \`default\``,
      {
        node: source,
        hint: "add a last case `- { default: END }` (or another node) for the states no `when` covers",
      },
    );
  };
}

function routerDecider(edge: Edge, index: number, ctx: CompileContext, source: string): Decide {
  const router = edge.router!;
  const fn = ctx.moduleExport(["edges", index, "router", "module"]).value as (
    state: Record<string, unknown>,
    runtime: LangGraphRunnableConfig,
  ) => unknown;
  const declared = new Set(router.to);
  return async (state, config) => {
    const context = ctx.resolveContext(config?.context);
    const chosen = await fn(state, { ...config, context });
    const targets = Array.isArray(chosen) ? chosen : [chosen];
    for (const t of targets) {
      if (typeof t !== "string" || !declared.has(t)) {
        throw new GraphspecRunError(
          "router-target",
          `the router from ${describeSource(edge.from)} returned ${preview(t)}, which its \`to\` does not declare`,
          {
            node: source,
            hint: `return one of ${[...declared].map((d) => `\`${d}\``).join(", ")}, or add it to the router's \`to\``,
          },
        );
      }
    }
    return targets.map((t) => ctx.target(t as string));
  };
}

function mapDecider(edge: Edge, index: number, ctx: CompileContext): Decide {
  const map = edge.map!;
  const values = ctx.values(undefined);
  const over = compileCel(
    values,
    ["edges", index, "map", "over"],
    map.over,
    ctx.expr.scope("`map.over`"),
  );
  const withValues = map.with
    ? compileValue(
        values,
        ["edges", index, "map", "with"],
        map.with,
        ctx.expr.scope("`map.with`", { item: ctx.itemType(map.over) }),
      )
    : undefined;
  const who = { label: `the \`map.with\` of the edge to \`${map.to}\`` };
  return (state, config) => {
    const vars = {
      state: exprState(state, ctx.messageChannels),
      context: ctx.resolveContext(config?.context),
    };
    const items = over(vars);
    if (!Array.isArray(items)) {
      throw new GraphspecRunError(
        "expression",
        `\`map.over\` of the edge to \`${map.to}\` gave ${preview(items)}, not a list`,
        {
          hint: "make `over` an expression that gives a list",
        },
      );
    }
    return items.map((item) => {
      // The `with` values are this run's input, laid over the state; they are not written to it.
      const extra = withValues
        ? ctx.guard(withValues({ ...vars, item }) as Record<string, unknown>, who)
        : {};
      return new Send(map.to, { ...state, ...extra });
    });
  };
}

/** LangGraph's name for the error-handler node it adds for `errorHandler`. */
export const errorHandlerName = (node: string): string => `__error_handler__${node}`;

/** The source lists an edge leaves from: its own, and each with failed nodes' handlers in their place. */
function sourceVariants(
  sources: readonly string[],
  handlerOf: (node: string) => string | undefined,
): string[][] {
  let variants: string[][] = [[]];
  for (const s of sources) {
    const handler = handlerOf(s);
    variants = variants.flatMap((v) =>
      handler
        ? [
            [...v, s],
            [...v, handler],
          ]
        : [[...v, s]],
    );
  }
  return variants;
}

/** Lowers the edges; an edge from a node not in `reached` (left out of the graph) is left out too. */
export function lowerEdges(
  builder: GraphBuilder,
  edges: readonly Edge[],
  ctx: CompileContext,
  reached: ReadonlySet<string>,
): void {
  const handlerOf = (node: string): string | undefined => {
    const onError = ctx.spec.nodes[node]?.on_error;
    return onError && onError.goto === undefined ? errorHandlerName(node) : undefined;
  };
  edges.forEach((edge, index) => {
    if (!list(edge.from).every((s) => reached.has(s))) return;
    const sources = list(edge.from).map((s) => (s === "START" ? START : s));
    const variants = sourceVariants(sources, handlerOf);
    if (edge.to !== undefined) {
      for (const target of list(edge.to).map((t) => ctx.target(t))) {
        for (const from of variants) {
          // A list into END: each source ends (LangGraph cannot join into END).
          if (from.length > 1 && target !== ctx.target("END")) builder.addEdge(from, target);
          else for (const s of from) builder.addEdge(s, target);
        }
      }
      return;
    }
    let deciders = variants.map((v) => v[0]!);
    if (sources.length > 1) {
      const join = joinNodeName(index);
      builder.addNode(join, () => ({}));
      for (const from of variants) builder.addEdge(from, join);
      deciders = [join];
    }
    for (const source of new Set(deciders)) {
      const name = `edge_${index}`;
      const origin = sources.length > 1 ? source : sources[0]!;
      if (edge.route) {
        const targets = [...new Set(edge.route.map((c) => ctx.target(String(c.default ?? c.to))))];
        builder.addConditionalEdges(source, routeDecider(edge, index, ctx, origin), targets, name);
      } else if (edge.router) {
        const targets = edge.router.to.map((t) => ctx.target(t));
        builder.addConditionalEdges(source, routerDecider(edge, index, ctx, origin), targets, name);
      } else if (edge.map) {
        builder.addConditionalEdges(source, mapDecider(edge, index, ctx), [edge.map.to], name);
      }
    }
  });
}
