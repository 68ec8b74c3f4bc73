/**
 * `compile(spec, options)`: a checked spec becomes a real LangGraph graph. Stages: check the spec
 * (refusing one with errors), load what it references, build the state, lower every node through
 * its kind and every edge, and compile with the spec's breakpoints and limits.
 */
import { relative, sep } from "node:path";
import { InMemoryCache } from "@langchain/langgraph-checkpoint";
import { checkDocument } from "../check/validate.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { ExprEnvironment } from "../expr/index.js";
import { inProcessInspector, moduleRefs, resolveRef, sharedIn } from "../modules/index.js";
import { loadPeer } from "../peers/load-peer.js";
import { buildGraph, reachedFromStart } from "../spec/control-flow.js";
import type { SpecDocument } from "../spec/document.js";
import { loadSpec } from "../spec/load.js";
import type { GraphSpec } from "../spec/spec-types.generated.js";
import { CompileContext } from "./compile-context.js";
import { CompileError } from "./compile-error.js";
import { lowerEdges } from "./edges.js";
import { GraphBuilder } from "./graph-builder.js";
import { usedServers } from "./mcp/mcp-usage.js";
import { nodeOptions, wrapNode } from "./node-wrapper.js";
import { NODE_KINDS } from "./nodes/index.js";
import type { CompileOptions } from "./options.js";
import { canPause, guardInput, markPausing, type SpecGraph, useScripts } from "./spec-graph.js";
import { buildStateSchemas, type ReducerFn } from "./state.js";

export type { SpecGraph };

const formatDiagnostic = (d: Diagnostic) =>
  `${d.file}:${d.line}:${d.column}: ${d.message} [${d.rule}]`;

function refuse(
  doc: SpecDocument,
  errors: readonly Diagnostic[],
  all: readonly Diagnostic[],
): never {
  const shown = errors.slice(0, 3).map(formatDiagnostic);
  const more =
    errors.length > 3
      ? `\n(and ${errors.length - 3} more; run \`graphspec validate ${doc.file}\`)`
      : "";
  throw new CompileError(
    `${doc.file} has ${errors.length} error${errors.length === 1 ? "" : "s"} and cannot be compiled:\n${shown.join("\n")}${more}`,
    all,
  );
}

/** Compiles a spec (a loaded document, or a path to one) into a LangGraph graph. Throws CompileError or SpecError. */
export async function compile(
  spec: SpecDocument | string,
  options: CompileOptions = {},
): Promise<SpecGraph> {
  const doc = typeof spec === "string" ? await loadSpec(spec) : spec;
  const cache = options.cache ?? new Map<string, unknown>();
  if (options.validate !== false) {
    // Its modules load here anyway (compile runs them): the check reads those values rather than
    // loading them again in a separate process.
    const diagnostics = await checkDocument(doc, { cache, inspector: inProcessInspector });
    const errors = diagnostics.filter((d) => d.severity === "error");
    if (errors.length) refuse(doc, errors, diagnostics);
    options.onDiagnostics?.(diagnostics);
  } else if (doc.problems.some((p) => p.severity === "error")) {
    refuse(
      doc,
      doc.problems.filter((p) => p.severity === "error"),
      doc.problems,
    );
  }
  const data = doc.data as GraphSpec;
  const shared = sharedIn(cache);
  const refs = await Promise.all(
    moduleRefs(data).map((ref) =>
      resolveRef({ specPath: doc.path, root: doc.root }, ref, { shared }),
    ),
  );

  const customReducers = new Map<string, ReducerFn>();
  for (const r of refs) {
    if (r.ref.kind === "reducer" && r.loaded)
      customReducers.set(String(r.ref.path[1]), r.loaded.value as ReducerFn);
  }
  const schemas = buildStateSchemas(data, customReducers);
  const builder = new GraphBuilder(schemas);

  const expr = ExprEnvironment.for({ state: data.state, context: data.context });
  // A child's diagnostics name it relative to the parent's project, like the parent's own.
  const ctx = new CompileContext(doc, data, expr, options, refs, async (abs) =>
    compile(
      await loadSpec(abs, { root: doc.root, file: relative(doc.root, abs).split(sep).join("/") }),
      {
        ...options,
        cache,
      },
    ),
  );
  if (usedServers(data).length) {
    // Loaded only for a spec with MCP servers: the SDK and the adapters stay out of the others.
    const [{ mcpTools }, { McpConnections }] = await loadPeer("mcp", () =>
      Promise.all([import("./mcp/mcp-tools.js"), import("./mcp/mcp-connections.js")]),
    );
    ctx.mcpTools = await mcpTools(
      doc,
      data,
      options.mcp ?? new McpConnections({ holdProcess: false }),
      expr,
      options.env ?? process.env,
      ctx.values(undefined),
    );
  }
  // A node no path from START reaches is dead code (`unreachable-node` warns): left out, with the
  // edges from it, as LangGraph refuses a node no edge leads to.
  const reached = reachedFromStart(buildGraph(data));
  let pauses = Boolean(
    data.interrupts?.before?.some((n) => reached.has(n)) ||
      data.interrupts?.after?.some((n) => reached.has(n)),
  );
  for (const [name, node] of Object.entries(data.nodes)) {
    if (!reached.has(name)) continue;
    const kind = NODE_KINDS[node.kind];
    const lowered = await kind.lower(name, node as never, ctx);
    // A subgraph pauses its parent only when the child itself can pause (and so on down).
    pauses ||=
      node.kind === "interrupt" ||
      (node.kind === "agent" && Boolean(node.approve?.length)) ||
      (lowered.subgraphs ?? []).some((g) => canPause(g as SpecGraph));
    builder.addNode(name, wrapNode(name, lowered, ctx), nodeOptions(name, node, lowered, ctx));
  }
  lowerEdges(builder, data.edges, ctx, reached);

  const cached = Object.values(data.nodes).some((n) => n.cache);
  const compiled = builder.compile({
    ...(options.checkpointer !== undefined ? { checkpointer: options.checkpointer } : {}),
    ...(options.store ? { store: options.store } : {}),
    ...(cached ? { cache: options.nodeCache ?? new InMemoryCache() } : {}),
    ...(data.interrupts?.before
      ? { interruptBefore: data.interrupts.before.filter((n) => reached.has(n)) }
      : {}),
    ...(data.interrupts?.after
      ? { interruptAfter: data.interrupts.after.filter((n) => reached.has(n)) }
      : {}),
    name: data.name,
    ...(data.description ? { description: data.description } : {}),
  });
  if (data.limits?.recursion !== undefined) {
    compiled.config = { ...compiled.config, recursionLimit: data.limits.recursion };
  }
  const graph = guardInput(compiled, data.input ?? Object.keys(data.state), ctx.guard, data);
  if (ctx.scriptQueues) useScripts(graph, ctx.scriptQueues);
  markPausing(graph, pauses);
  return graph;
}
