/** One graph: its drawing and its diagnostics. */
import type { Assistant } from "@langchain/langgraph-sdk";

export function GraphView(props: { assistant: Assistant }) {
  return (
    <section aria-labelledby="graph-title">
      <h2 id="graph-title">{props.assistant.name}</h2>
    </section>
  );
}
