/**
 * The spec's models as an assistant's `metadata.graphspec.models` (the LangGraph Platform API's
 * free-form assistant metadata): each entry's `provider:name` and, when the spec gives one, its
 * `price` (USD per million tokens), so a client — graphspec dev's page — can price a run's usage.
 * Nothing secret: the other keys of a model (api_key, base_url) are not copied.
 */
import type { GraphSpec } from "../spec/spec-types.generated.js";

export interface ModelMetadata {
  model: string;
  price?: { input: number; output: number };
}

export function modelsMetadata(spec: GraphSpec): Record<string, ModelMetadata> {
  return Object.fromEntries(
    Object.entries(spec.models ?? {}).map(([name, m]) => [
      name,
      m.price
        ? { model: m.model, price: { input: m.price.input, output: m.price.output } }
        : { model: m.model },
    ]),
  );
}
