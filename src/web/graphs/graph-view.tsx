/**
 * One graph: its name, description and Run link, its drawing (the last good one while a refused
 * change sits in the file), its schemas, its MCP servers and its diagnostics.
 */
import type { Assistant } from "@langchain/langgraph-sdk";
import { GraphDrawing } from "../draw/graph-drawing.js";
import { hrefOf } from "../route.js";
import { DiagnosticsList } from "./diagnostics-list.js";
import { graphMetaOf } from "./graph-meta.js";
import { McpServers } from "./mcp-servers.js";
import { SchemaSummary } from "./schema-summary.js";
import { useDrawing } from "./use-drawing.js";

export function GraphView(props: { assistant: Assistant }) {
  const a = props.assistant;
  const meta = graphMetaOf(a);
  const drawing = useDrawing(a);
  const nothingServes = meta?.served_version === null;
  return (
    <section aria-labelledby="graph-title" class="graph-view">
      <div class="graph-head">
        <h2 id="graph-title">{a.name}</h2>
        {nothingServes ? null : (
          <a class="button" href={hrefOf({ view: "run", graph: a.graph_id })}>
            Run
          </a>
        )}
        <span class="version">
          {meta?.served_version ? `version ${meta.served_version}` : null}
          {meta ? <> · {meta.file}</> : null}
        </span>
      </div>
      {a.description ? <p class="graph-description">{a.description}</p> : null}
      {meta?.refused || meta?.diagnostics.length ? <DiagnosticsList meta={meta} /> : null}
      {drawing.error ? (
        <p role="alert">
          Could not fetch the drawing: {drawing.error}
          {drawing.graph ? " (the last one is shown)" : ""}
        </p>
      ) : null}
      {nothingServes && drawing.graph && drawing.graph.nodes.length > 2 ? (
        <p class="hint">Drawn from the file as it is; it does not run until it builds.</p>
      ) : null}
      {drawing.graph ? (
        drawing.graph.nodes.length > 2 || !nothingServes ? (
          <GraphDrawing name={a.name} graph={drawing.graph} assistantId={a.assistant_id} />
        ) : null
      ) : (
        <p class="hint">Drawing…</p>
      )}
      <SchemaSummary schemas={drawing.schemas} />
      <McpServers servers={meta?.mcp_servers} />
      {meta?.refused || meta?.diagnostics.length ? null : <DiagnosticsList meta={meta} />}
    </section>
  );
}
