/**
 * A graph's `config_schema` (`GET /assistants/{id}/schemas`): the `configurable` choices a run of
 * it may make, as LangGraph Platform publishes a graph's configuration for Studio and other clients
 * to build a form from — `model`, one of the models the spec's `allow` lists name (spec.md, "Models
 * a run may choose"), and `toolIds`, the tools its models may call (the tool allowlist). A graph
 * with neither choice has none (null), as on LangGraph's server.
 */
import type { GraphSpec } from "../spec/spec-types.generated.js";

export function runConfigSchema(spec: GraphSpec): Record<string, unknown> | null {
  const models = spec.models ?? {};
  // Each name once, in the order the spec's `allow` lists first name it.
  const allowed = [...new Set(Object.values(models).flatMap((m) => m.allow ?? []))];
  const tools = Object.keys(spec.tools ?? {});
  if (!allowed.length && !tools.length) return null;
  const described = (name: string) => {
    const m = models[name];
    return m ? `${name}: ${m.model}` : name;
  };
  return {
    title: `${spec.name} configuration`,
    type: "object",
    properties: {
      ...(allowed.length
        ? {
            model: {
              type: "string",
              enum: allowed,
              description: `A model in place of the one whose \`allow\` names it (${allowed.map(described).join(", ")}); left out, the spec's own models answer.`,
            },
          }
        : {}),
      ...(tools.length
        ? {
            toolIds: {
              type: "array",
              items: { type: "string", enum: tools },
              uniqueItems: true,
              description:
                "The tools the run's models may call; a call of another comes back as a `policy_denied` tool error. Left out, every tool.",
            },
          }
        : {}),
    },
  };
}
