/**
 * "Fork from here": the checkpoint's values as JSON to edit; the keys changed are written on top of
 * that checkpoint (`threads.updateState` with `checkpointId`), a new branch of the thread. Only
 * changed keys are sent: each goes through its channel's reducer, so an unchanged `append` list
 * sent again would grow.
 */
import type { ThreadState } from "@langchain/langgraph-sdk";
import { useState } from "preact/hooks";
import { client } from "../api.js";
import { failureText } from "./api-failure.js";
import { Modal } from "./modal.js";
import { changedKeys } from "./values-diff.js";

export function ForkDialog(props: {
  threadId: string;
  checkpoint: ThreadState;
  onClose: () => void;
  onForked: (checkpointId: string | undefined) => void;
}) {
  const original = (props.checkpoint.values ?? {}) as Record<string, unknown>;
  const [text, setText] = useState(() => JSON.stringify(original, null, 2));
  const [asNode, setAsNode] = useState("");
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
    const values = changedKeys(original, edited as Record<string, unknown>);
    if (!Object.keys(values).length) {
      setError("Nothing changed: edit a value to fork with it.");
      return;
    }
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
          Only the keys you change are written, each through its channel's reducer.
        </p>
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
