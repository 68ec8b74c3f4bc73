/**
 * "Fork from here": the checkpoint's values as JSON to edit; the keys changed are written on top of
 * that checkpoint (`threads.updateState` with `checkpointId`), a new branch of the thread. Only
 * changed keys are sent. Each is written as shown by default — a channel with a reducer would
 * otherwise combine the edit with its value (a `sum` edited from 1 to 200 would be 201) — or,
 * chosen, through its reducer as LangGraph's `updateState` does; the dialog says what each of the
 * graph's reducers does (fork-writes.ts). The update runs with the thread's own context.
 */
import type { ThreadState } from "@langchain/langgraph-sdk";
import { useEffect, useState } from "preact/hooks";
import { client } from "../api.js";
import { failureText } from "./api-failure.js";
import { forkWrites, type Reducers, throughReducer } from "./fork-writes.js";
import { Modal } from "./modal.js";
import { changedKeys } from "./values-diff.js";

/** The graph's reducers, from its assistant (`metadata.graphspec.reducers`); none when unknown. */
function useReducers(graph: string | undefined): Reducers {
  const [reducers, setReducers] = useState<Reducers>({});
  useEffect(() => {
    if (!graph) return;
    let live = true;
    client.assistants
      .get(graph)
      .then((a) => {
        const found = (a.metadata?.graphspec as { reducers?: unknown } | undefined)?.reducers;
        if (live && found && typeof found === "object") setReducers(found as Reducers);
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [graph]);
  return reducers;
}

export function ForkDialog(props: {
  threadId: string;
  /** The thread's graph (its assistant says which channels have reducers). */
  graph: string | undefined;
  checkpoint: ThreadState;
  onClose: () => void;
  onForked: (checkpointId: string | undefined) => void;
}) {
  const original = (props.checkpoint.values ?? {}) as Record<string, unknown>;
  const [text, setText] = useState(() => JSON.stringify(original, null, 2));
  const [asNode, setAsNode] = useState("");
  const [asShown, setAsShown] = useState(true);
  const reducers = useReducers(props.graph);
  const reduced = Object.entries(reducers).filter(([k]) => k in original);
  const [error, setError] = useState<string | undefined>(undefined);
  const [working, setWorking] = useState(false);
  const from = props.checkpoint.checkpoint.checkpoint_id ?? undefined;

  const fork = async (e: Event) => {
    e.preventDefault();
    let edited: unknown;
    try {
      edited = JSON.parse(text);
    } catch (err) {
      setError(`The values are not valid JSON: ${(err as Error).message}`);
      return;
    }
    if (typeof edited !== "object" || edited === null || Array.isArray(edited)) {
      setError("The values must be a JSON object, one key per channel.");
      return;
    }
    const record = edited as Record<string, unknown>;
    if (!Object.keys(changedKeys(original, record)).length) {
      setError("Nothing changed: edit a value to fork with it.");
      return;
    }
    const values = forkWrites(original, record, reducers, asShown);
    setWorking(true);
    try {
      const written = await client.threads.updateState(props.threadId, {
        values,
        ...(from ? { checkpointId: from } : {}),
        ...(asNode.trim() ? { asNode: asNode.trim() } : {}),
      });
      props.onForked(written.configurable?.checkpoint_id ?? undefined);
    } catch (err) {
      setError(`The fork was refused: ${failureText(err)}`);
    } finally {
      setWorking(false);
    }
  };
  return (
    <Modal
      title={`Fork from step ${props.checkpoint.metadata?.step ?? "?"}`}
      onClose={props.onClose}
    >
      <form onSubmit={fork} class="fork-form">
        <label for="fork-values">Values (JSON)</label>
        <textarea
          id="fork-values"
          rows={14}
          spellcheck={false}
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
          aria-describedby="fork-values-hint"
        />
        <p id="fork-values-hint" class="hint">
          Only the keys you change are written.
        </p>
        <fieldset class="fork-how">
          <legend>How an edited value is written</legend>
          <label>
            <input
              type="radio"
              name="fork-how"
              checked={asShown}
              onChange={() => setAsShown(true)}
            />{" "}
            As shown: the channel holds the value you typed
          </label>
          <label>
            <input
              type="radio"
              name="fork-how"
              checked={!asShown}
              onChange={() => setAsShown(false)}
            />{" "}
            Through the channel's reducer, as <code>updateState</code> does
          </label>
          {reduced.length ? (
            <ul class="hint" aria-label="Reducers">
              {reduced.map(([key, reducer]) => (
                <li key={key}>
                  <code>{key}</code> ({reducer}): through the reducer, the edit{" "}
                  {throughReducer(reducer)}
                </li>
              ))}
            </ul>
          ) : (
            <p class="hint">No channel here has a reducer: both write the value as shown.</p>
          )}
        </fieldset>
        <label for="fork-as-node">As node (optional)</label>
        <input
          id="fork-as-node"
          value={asNode}
          onInput={(e) => setAsNode(e.currentTarget.value)}
          aria-describedby="fork-as-node-hint"
        />
        <p id="fork-as-node-hint" class="hint">
          The node the write counts as: what runs next follows from it.
        </p>
        {error ? <p role="alert">{error}</p> : null}
        <div class="actions">
          <button type="submit" class="primary" disabled={working}>
            Fork
          </button>
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
