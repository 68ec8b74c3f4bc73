/** What a graph takes and gives: the fields of its input, output and context schemas. */
import type { GraphSchema } from "@langchain/langgraph-sdk";

interface ObjectSchema {
  properties?: Record<string, { type?: string | string[]; description?: string }>;
  required?: string[];
}

const GROUPS = [
  ["input_schema", "Input"],
  ["output_schema", "Output"],
  ["context_schema", "Context"],
] as const;

export function SchemaSummary(props: { schemas: GraphSchema | undefined }) {
  if (!props.schemas) return null;
  return (
    <section aria-label="Schemas" class="schemas">
      <h3>Schemas</h3>
      <div class="schema-groups">
        {GROUPS.map(([key, title]) => {
          const schema = props.schemas?.[key] as ObjectSchema | null | undefined;
          const fields = Object.entries(schema?.properties ?? {});
          return (
            <div key={key}>
              <h4>{title}</h4>
              {fields.length ? (
                <ul>
                  {fields.map(([name, field]) => (
                    <li key={name} title={field.description}>
                      <code>{name}</code>{" "}
                      <span class="type">{[field.type ?? "any"].flat().join(" | ")}</span>
                      {schema?.required?.includes(name) ? (
                        <span class="required"> required</span>
                      ) : null}
                    </li>
                  ))}
                </ul>
              ) : (
                <p class="hint">none</p>
              )}
            </div>
          );
        })}
      </div>
    </section>
  );
}
