/**
 * A graph's MCP servers, as graphspec dev last found them: up or down (with why, and the fix), and
 * the tools taken from each with their arguments. A server that is down is tried again each time
 * the page lists the graphs, so reloading the page shows it back.
 */
import type { McpServerMeta } from "./graph-meta.js";

interface ArgumentSchema {
  properties?: Record<string, { type?: string | string[]; description?: string }>;
  required?: string[];
}

export function McpServers(props: { servers: McpServerMeta[] | undefined }) {
  const servers = props.servers ?? [];
  if (!servers.length) return null;
  return (
    <section aria-label="MCP servers" class="mcp-servers">
      <h3>MCP servers</h3>
      <ul class="mcp-servers-list">
        {servers.map((s) => (
          <li
            key={s.name}
            class={`mcp-server ${s.up === false ? "down" : s.up ? "up" : "unknown"}`}
          >
            <strong>{s.name}</strong> <span class="transport">{s.transport}</span>{" "}
            <span class="mcp-state">{s.up === false ? "down" : s.up ? "up" : "not used yet"}</span>
            {s.up === false ? (
              <p class="fix">
                {s.message}
                {s.hint ? <> — {s.hint}</> : null}
              </p>
            ) : null}
            {s.tools.length ? (
              <ul class="mcp-tools">
                {s.tools.map((t) => (
                  <li key={t.name} title={t.description}>
                    <code>{t.name}</code>({argumentsOf(t.schema as ArgumentSchema)})
                    {t.description ? <span class="hint"> {t.description}</span> : null}
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** `text: string, count?: number`: the arguments as a model sees them. */
function argumentsOf(schema: ArgumentSchema): string {
  return Object.entries(schema.properties ?? {})
    .map(
      ([name, f]) =>
        `${name}${schema.required?.includes(name) ? "" : "?"}: ${[f.type ?? "any"].flat().join(" | ")}`,
    )
    .join(", ");
}
