/**
 * A graph's `config_schema` (`GET /assistants/{id}/schemas`): the `configurable` choices a run of
 * it may make, as LangGraph Platform publishes a graph's configuration for Studio and other clients
 * to build a form from — `model`, one of the models the spec's `allow` lists name (spec.md, "Models
 * a run may choose"), and `toolIds`, the tools its models may call (the tool allowlist). The
 * allowlist reaches the graph's subgraphs too, so their tools are listed with the graph's own: a
 * client that sends all but one leaves no subgraph's tool out by not knowing it. A graph with
 * neither choice has none (null), as on LangGraph's server.
 */
import { dirname } from "node:path";
import { resolveGraphRef } from "../modules/index.js";
import { loadSpec } from "../spec/load.js";
import { findProjectRoot } from "../spec/project-root.js";
import type { GraphSpec } from "../spec/spec-types.generated.js";

/** Subgraph files read at most, however they nest: a schema is not worth more work than this. */
const MAX_SUBGRAPHS = 100;

/**
 * The tools of the graph's subgraphs, at any depth, in the order met; each file read once (a spec
 * mounting itself included). A subgraph that does not load (a refused save) adds nothing.
 */
export async function subgraphTools(spec: GraphSpec, path: string): Promise<string[]> {
  const root = findProjectRoot(dirname(path));
  const seen = new Set([path]);
  const tools: string[] = [];
  const visit = async (s: GraphSpec, at: string): Promise<void> => {
    for (const [name, node] of Object.entries(s.nodes ?? {})) {
      if (node.kind !== "subgraph" || typeof node.graph !== "string") continue;
      if (seen.size > MAX_SUBGRAPHS) return;
      // As compile resolves it: a path that leaves the project (path-escape) is not read.
      const child = (
        await resolveGraphRef(
          { specPath: at, root },
          { node: name, graph: node.graph, path: ["nodes", name, "graph"] },
        )
      ).abs;
      if (!child || seen.has(child)) continue;
      seen.add(child);
      const loaded = await loadSpec(child, { root }).then(
        (doc) => doc.data as GraphSpec,
        () => undefined,
      );
      if (!loaded) continue;
      tools.push(
        ...Object.keys(loaded.tools ?? {}),
        ...Object.values(loaded.mcp_servers ?? {}).flatMap((s) =>
          Array.isArray(s.tools) ? s.tools : [],
        ),
      );
      await visit(loaded, child);
    }
  };
  await visit(spec, path);
  return tools;
}

export function runConfigSchema(
  spec: GraphSpec,
  /** The tools of its subgraphs (subgraphTools). */
  moreTools: readonly string[] = [],
): Record<string, unknown> | null {
  const models = spec.models ?? {};
  // Each name once, in the order the spec's `allow` lists first name it.
  const allowed = [...new Set(Object.values(models).flatMap((m) => m.allow ?? []))];
  // A server's `tools: [..]` are tools of the spec under their own names (`all`: the executor's listing, in moreTools).
  const fromServers = Object.values(spec.mcp_servers ?? {}).flatMap((s) =>
    Array.isArray(s.tools) ? s.tools : [],
  );
  const tools = [...new Set([...Object.keys(spec.tools ?? {}), ...fromServers, ...moreTools])];
  if (!allowed.length && !tools.length) return null;
  const described = (name: string) => {
    const m = models[name];
    return m ? `${name}: ${m.model}` : name;
  };
  return {
    title: `${spec.name} configuration`,
    type: "object",
    properties: {
      ...(allowed.length
        ? {
            model: {
              type: "string",
              enum: allowed,
              description: `A model in place of the one whose \`allow\` names it (${allowed.map(described).join(", ")}); left out, the spec's own models answer.`,
            },
          }
        : {}),
      ...(tools.length
        ? {
            toolIds: {
              type: "array",
              items: { type: "string", enum: tools },
              uniqueItems: true,
              description:
                "The tools the run's models may call, in the graph and its subgraphs; a call of another comes back as a `policy_denied` tool error. Left out, every tool.",
            },
          }
        : {}),
    },
  };
}
