/** The graphs of the folder, each with its description and a badge for its diagnostics: the page's navigation. */
import type { Assistant } from "@langchain/langgraph-sdk";
import { hrefOf } from "../route.js";
import { diagnosticCount, graphMetaOf } from "./graph-meta.js";

/** By name, as a person looks for one (the server lists them by file). */
const byName = (a: Assistant, b: Assistant) =>
  a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: "base" }) ||
  a.name.localeCompare(b.name);

export function GraphList(props: { assistants: Assistant[]; selected: string | undefined }) {
  return (
    <nav aria-label="Graphs">
      <h2>Graphs</h2>
      {props.assistants.length ? null : <p class="hint">No graph in the folder yet.</p>}
      <ul class="graph-list">
        {[...props.assistants].sort(byName).map((a) => {
          const meta = graphMetaOf(a);
          const badge = diagnosticCount(meta);
          const errors = meta?.diagnostics.some((d) => d.severity === "error") || meta?.refused;
          return (
            <li key={a.assistant_id}>
              <a
                href={hrefOf({ view: "graph", graph: a.graph_id })}
                aria-current={props.selected === a.graph_id ? "page" : undefined}
              >
                {a.name}
                {badge ? (
                  <span class={errors ? "badge error" : "badge warning"}>
                    {/* Read as "triage, 2 errors": the badge is part of the link's name. */}
                    <span class="visually-hidden">, </span>
                    {badge}
                  </span>
                ) : null}
              </a>
              {/* Cut to three lines by style.css; the title and the graph's view have it whole. */}
              {a.description ? (
                <p class="description" title={a.description}>
                  {a.description}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
