/**
 * The reducer of each state channel that has one, as an assistant's `metadata.graphspec.reducers`
 * (`{ notes: "append", attempts: "sum", messages: "messages" }`; a module's reducer is `custom`;
 * a channel not named replaces its value). A state update goes through these (LangGraph's
 * `updateState`): graphspec dev's fork dialog reads them to say what an edit does, and to write a
 * value as shown (docs/dev.md, "Threads").
 */
import type { GraphSpec } from "../spec/spec-types.generated.js";

export function reducersMetadata(spec: GraphSpec): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, field] of Object.entries(spec.state ?? {})) {
    const reducer =
      typeof field.reducer === "string"
        ? field.reducer
        : field.reducer && typeof field.reducer === "object"
          ? "custom"
          : field.type === "messages"
            ? "messages"
            : "replace";
    if (reducer !== "replace") out[name] = reducer;
  }
  return out;
}
