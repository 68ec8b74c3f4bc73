/** The graphs of the folder, each with its description: the page's navigation. */
import type { Assistant } from "@langchain/langgraph-sdk";
import { hrefOf } from "../route.js";

export function GraphList(props: { assistants: Assistant[]; selected: string | undefined }) {
  return (
    <nav aria-label="Graphs">
      <h2>Graphs</h2>
      <ul class="graph-list">
        {props.assistants.map((a) => (
          <li key={a.assistant_id}>
            <a
              href={hrefOf({ view: "graph", graph: a.graph_id })}
              aria-current={props.selected === a.graph_id ? "page" : undefined}
            >
              {a.name}
            </a>
            {a.description ? <p class="description">{a.description}</p> : null}
          </li>
        ))}
      </ul>
    </nav>
  );
}
