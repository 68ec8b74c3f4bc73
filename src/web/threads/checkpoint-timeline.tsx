/**
 * A thread's checkpoints as a timeline, newest first: step, source, the nodes whose writes made it,
 * what runs next, when. Selecting one shows its values and what it changed from its parent; each
 * can be run from (time travel) or forked from.
 */
import type { ThreadState } from "@langchain/langgraph-sdk";
import { madeBy } from "./made-by.js";
import { StateValues, ValueTree } from "./state-values.js";
import { When } from "./thread-list.js";
import { valuesDiff } from "./values-diff.js";

const idOf = (s: ThreadState) => s.checkpoint.checkpoint_id ?? "";

export function CheckpointTimeline(props: {
  history: ThreadState[];
  selected: string | undefined;
  onSelect: (checkpointId: string | undefined) => void;
  /** Undefined: the thread's graph is not known, so nothing can run. */
  onRun: ((s: ThreadState) => void) | undefined;
  onFork: (s: ThreadState) => void;
  working: boolean;
}) {
  const byId = new Map(props.history.map((s) => [idOf(s), s]));
  return (
    <ol class="timeline" aria-label="Checkpoints">
      {props.history.map((s, i) => {
        const id = idOf(s);
        const parent = byId.get(s.parent_checkpoint?.checkpoint_id ?? "");
        const open = props.selected === id;
        // A branch: its parent is not the checkpoint listed after it (a fork, a run from an earlier one).
        const branchOf =
          parent && props.history[i + 1] !== parent ? parent.metadata?.step : undefined;
        const detail = `checkpoint-${i}`;
        return (
          <li key={id} class={open ? "selected" : undefined} data-checkpoint-id={id}>
            <button
              type="button"
              class="checkpoint"
              aria-expanded={open}
              aria-controls={detail}
              onClick={() => props.onSelect(open ? undefined : id)}
            >
              <span class="step">Step {s.metadata?.step ?? "?"}</span>{" "}
              <span class="source">{s.metadata?.source ?? "?"}</span>
              {i === 0 ? <span class="current"> (current)</span> : null}
              {branchOf !== undefined ? (
                <span class="branch"> · branches from step {branchOf}</span>
              ) : null}
              <span class="made-by"> · by {madeBy(s, parent)}</span>
              <span class="next">
                {" "}
                · next: {s.next.length ? s.next.join(", ") : "nothing (done)"}
              </span>{" "}
              · <When at={s.created_at} />
            </button>
            <span class="checkpoint-actions">
              <button
                type="button"
                onClick={() => props.onRun?.(s)}
                disabled={props.working || !props.onRun || s.next.length === 0}
                title={
                  s.next.length === 0
                    ? "Nothing runs after this checkpoint"
                    : "Run the graph again from this checkpoint"
                }
              >
                Run from here
              </button>
              <button type="button" onClick={() => props.onFork(s)} disabled={props.working}>
                Fork from here
              </button>
            </span>
            {open ? (
              <div id={detail} class="checkpoint-detail">
                <h4>Values</h4>
                <StateValues values={s.values} />
                <h4>Changes from its parent</h4>
                <Changes
                  before={parent?.values}
                  after={s.values}
                  known={parent !== undefined || !s.parent_checkpoint}
                />
              </div>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

export function Changes(props: { before: unknown; after: unknown; known: boolean }) {
  if (!props.known) return <p class="hint">Its parent is further back: load older checkpoints.</p>;
  const changes = valuesDiff(
    props.before as Record<string, unknown> | undefined,
    (props.after ?? {}) as Record<string, unknown>,
  );
  if (!changes.length) return <p class="hint">No value changed.</p>;
  return (
    <table class="diff" aria-label="Changes">
      <thead>
        <tr>
          <th scope="col">Key</th>
          <th scope="col">Change</th>
          <th scope="col">Before</th>
          <th scope="col">After</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((c) => (
          <tr key={c.key} class={`diff-${c.kind}`}>
            <th scope="row">{c.key}</th>
            <td>{c.kind}</td>
            <td>{c.kind === "added" ? "—" : <ValueTree value={c.before} depth={1} />}</td>
            <td>{c.kind === "removed" ? "—" : <ValueTree value={c.after} depth={1} />}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
