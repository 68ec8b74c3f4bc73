/**
 * What `graphspec validate` finds in a graph's file, one item per diagnostic: a refused change's
 * errors (and the version that keeps serving), or the warnings of the version that serves.
 */
import type { GraphMeta } from "./graph-meta.js";

export function DiagnosticsList(props: { meta: GraphMeta | undefined }) {
  const meta = props.meta;
  const found = meta?.diagnostics ?? [];
  return (
    <section aria-label="Diagnostics" class="diagnostics">
      <h3>Diagnostics</h3>
      {!meta ? (
        <p class="hint">This server does not report diagnostics (graphspec dev does).</p>
      ) : !meta.refused && !found.length ? (
        <p class="hint">None: {meta.file} serves as saved.</p>
      ) : (
        <>
          {meta.refused ? (
            <p class={meta.served_version === null ? "refused none" : "refused"}>
              {meta.served_version === null
                ? `${meta.file} has never built: nothing serves until it is fixed.`
                : `The change in ${meta.file} was refused: version ${meta.served_version} keeps serving (drawn below).`}
            </p>
          ) : (
            <p class="hint">
              {meta.file} serves as saved (version {meta.served_version}), with these warnings.
            </p>
          )}
          {meta.message && !found.length ? <p>{meta.message}</p> : null}
          <ul>
            {found.map((d) => (
              <li key={`${d.file}:${d.line}:${d.col}:${d.rule}:${d.message}`} class={d.severity}>
                <code class="where">
                  {d.file}:{d.line}:{d.col}
                </code>{" "}
                <strong class="severity">{d.severity}</strong>: {d.message}{" "}
                <code class="rule">[{d.rule}]</code>
                {d.hint ? <p class="fix">{d.hint}</p> : null}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
