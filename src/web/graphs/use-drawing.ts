/**
 * A graph's drawing and schemas, fetched when the graph is opened and again only when its
 * assistant's `version` or `updated_at` moves (a save that built). A refused save moves neither, so
 * the last good drawing stays; a failed fetch keeps it too, and says why.
 */
import type { Assistant, GraphSchema } from "@langchain/langgraph-sdk";
import { useEffect, useState } from "preact/hooks";
import type { DrawableGraph } from "../../draw/drawable.js";
import { client } from "../api.js";

export interface Drawing {
  graph: DrawableGraph | undefined;
  schemas: GraphSchema | undefined;
  /** The version drawn. */
  version: number | undefined;
  error: string | undefined;
}

const EMPTY: Drawing = {
  graph: undefined,
  schemas: undefined,
  version: undefined,
  error: undefined,
};

export function useDrawing(assistant: Assistant): Drawing {
  const [drawing, setDrawing] = useState<Drawing>(EMPTY);
  const id = assistant.assistant_id;
  // Another graph: nothing of the last one's drawing is kept.
  useEffect(() => setDrawing(EMPTY), [id]);
  useEffect(() => {
    let stale = false;
    const version = assistant.version;
    Promise.all([client.assistants.getGraph(id), client.assistants.getSchemas(id)]).then(
      ([graph, schemas]) => {
        if (!stale)
          setDrawing({
            graph: graph as unknown as DrawableGraph,
            schemas,
            version,
            error: undefined,
          });
      },
      (e: Error) => {
        if (!stale) setDrawing((d) => ({ ...d, error: e.message }));
      },
    );
    return () => {
      stale = true;
    };
  }, [id, assistant.version, assistant.updated_at]);
  return drawing;
}
