/**
 * A state's values, readable: one entry per channel, a list of messages as a transcript, anything
 * else as a JSON tree whose objects and lists fold (open two levels deep).
 */
import { type TranscriptLine, transcriptOf } from "./transcript.js";

export function StateValues(props: { values: unknown }) {
  const values = props.values;
  if (typeof values !== "object" || values === null || Array.isArray(values))
    return <ValueTree value={values} depth={0} />;
  const entries = Object.entries(values);
  if (!entries.length) return <p class="hint">No values yet.</p>;
  return (
    <dl class="state-values">
      {entries.map(([key, value]) => {
        const transcript = transcriptOf(value);
        return (
          <div key={key}>
            <dt>{key}</dt>
            <dd>
              {transcript ? (
                <Transcript lines={transcript} />
              ) : (
                <ValueTree value={value} depth={1} />
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

function Transcript(props: { lines: TranscriptLine[] }) {
  return (
    <ol class="transcript" aria-label="Messages">
      {props.lines.map((line, i) => (
        <li key={i} class={`message role-${line.role}${line.failed ? " failed" : ""}`}>
          <span class="role">
            {line.tool ? `${line.role} (${line.tool})` : line.role}
            {/* Said in words, not only by the red mark: a screen reader reads it with the role. */}
            {line.failed ? <span class="failed-mark"> · failed</span> : null}
          </span>
          {line.text ? <span class="text">{line.text}</span> : null}
          {line.toolCalls.map((c, j) => (
            <code key={j} class="tool-call">
              {c.name}({JSON.stringify(c.args ?? {})})
            </code>
          ))}
        </li>
      ))}
    </ol>
  );
}

/** A JSON value as a tree: objects and lists fold, scalars as JSON. */
export function ValueTree(props: { value: unknown; depth: number }) {
  const { value, depth } = props;
  if (typeof value !== "object" || value === null)
    return (
      <span class={`json json-${value === null ? "null" : typeof value}`}>{scalar(value)}</span>
    );
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [String(i), v])
    : Object.entries(value);
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  if (!entries.length) return <span class="json">{`${open}${close}`}</span>;
  return (
    <details class="json-tree" open={depth < 2}>
      <summary>
        {open}
        {entries.length} {Array.isArray(value) ? "item" : "key"}
        {entries.length === 1 ? "" : "s"}
        {close}
      </summary>
      <ul>
        {entries.map(([k, v]) => (
          <li key={k}>
            <span class="json-key">{k}</span>: <ValueTree value={v} depth={depth + 1} />
          </li>
        ))}
      </ul>
    </details>
  );
}

const scalar = (v: unknown) => (v === undefined ? "undefined" : JSON.stringify(v));
