/** Which tools a spec's nodes name, read from the spec alone (validate and compile share it). */
/** The tool names nodes use (`tools`, `approve`, `tool`), each with the first node naming it. */
export function toolsNodesName(spec: { nodes?: unknown }): Map<string, string> {
  const named = new Map<string, string>();
  const nodes = typeof spec.nodes === "object" && spec.nodes !== null ? spec.nodes : {};
  for (const [node, decl] of Object.entries(nodes)) {
    if (typeof decl !== "object" || decl === null) continue;
    const { tools, approve, tool } = decl as Record<string, unknown>;
    for (const t of [
      ...(Array.isArray(tools) ? tools : []),
      ...(Array.isArray(approve) ? approve : []),
      tool,
    ]) {
      if (typeof t === "string" && !named.has(t)) named.set(t, node);
    }
  }
  return named;
}
