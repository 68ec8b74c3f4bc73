/** A run of one graph: input and context forms, then the run as it goes. */
import type { Assistant } from "@langchain/langgraph-sdk";

export function RunView(props: { assistant: Assistant; thread?: string }) {
  return (
    <section aria-labelledby="run-title">
      <h2 id="run-title">Run {props.assistant.name}</h2>
      {props.thread ? <p>Thread {props.thread}</p> : null}
    </section>
  );
}
