/**
 * What a run started away from the run view — the thread page's "Run from here" — chooses besides
 * its input: the choices the tab keeps for the graph (its stand-in, its run options, its saved
 * assistant), as the run view would send them. Without them a "Run from here" of an example whose
 * models are real went to the provider (no key offline: `unauthorized`), whatever the run before
 * it answered from, and ran without the breakpoints, model or tools chosen for the thread.
 */
import type { Config } from "@langchain/langgraph-sdk";
import { END_ID, START_ID } from "../../draw/drawable.js";
import { client } from "../api.js";
import type { JsonSchema } from "../forms/schema-fields.js";
import { modelsOfMetadata } from "./run-cost.js";
import { choicesOfConfigSchema, runPayload } from "./run-options.js";
import { keptRunOptions } from "./run-options-memory.js";
import { keepAssistant, keptAssistant } from "./saved-assistant-memory.js";
import { initialStandIn, standInsOfMetadata, withoutStandInOf } from "./stand-in.js";

export interface KeptRun {
  /** The assistant to run with: the saved one kept for the graph, else the graph's own. */
  assistantId: string;
  config?: Config;
  interruptBefore?: string[];
  interruptAfter?: string[];
}

/** The tab's run choices for the graph, and what a run of it must be given. */
export interface KeptRunChoices {
  run: KeptRun;
  /** The graph's context schema (a secret field is `writeOnly`). */
  context: JsonSchema;
  /** The context the saved assistant gives, if one is kept ({} for the graph's own). */
  given: Record<string, unknown>;
}

export async function keptRunChoices(graph: string): Promise<KeptRunChoices> {
  const savedId = keptAssistant(graph);
  const [assistant, schemas, drawing, saved] = await Promise.all([
    client.assistants.get(graph),
    client.assistants.getSchemas(graph),
    client.assistants.getGraph(graph),
    // One deleted since it was picked: the graph's own runs instead, and the pick is dropped.
    savedId
      ? client.assistants.get(savedId).catch(() => {
          keepAssistant(graph, "");
          return undefined;
        })
      : undefined,
  ]);
  const choices = choicesOfConfigSchema(schemas.config_schema);
  const nodes = drawing.nodes
    .map((n) => String(n.id))
    .filter((id) => id !== START_ID && id !== END_ID && !id.includes(":"));
  const standIn = initialStandIn(
    graph,
    standInsOfMetadata(assistant.metadata),
    Object.keys(modelsOfMetadata(assistant.metadata)).length > 0,
    withoutStandInOf(assistant.metadata),
  );
  return {
    run: {
      assistantId: saved?.assistant_id ?? graph,
      ...runPayload(keptRunOptions(graph, choices, nodes), choices, standIn),
    },
    context: (schemas.context_schema ?? { type: "object", properties: {} }) as JsonSchema,
    given: (saved?.context ?? {}) as Record<string, unknown>,
  };
}
