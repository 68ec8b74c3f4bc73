/** "Delete thread", confirmed in a dialog; a busy thread (409) is said so, and nothing is deleted. */
import { useState } from "preact/hooks";
import { client } from "../api.js";
import { failureText, statusOf } from "./api-failure.js";
import { Modal } from "./modal.js";

export function DeleteDialog(props: {
  threadId: string;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const [error, setError] = useState<string | undefined>(undefined);
  const [working, setWorking] = useState(false);
  const remove = async () => {
    setWorking(true);
    try {
      await client.threads.delete(props.threadId);
      props.onDeleted();
    } catch (e) {
      setError(
        statusOf(e) === 409
          ? "The thread has a run in progress, so it was not deleted: cancel the run or wait for it to end, then delete it."
          : `The thread was not deleted: ${failureText(e)}`,
      );
    } finally {
      setWorking(false);
    }
  };
  return (
    <Modal title="Delete thread?" onClose={props.onClose}>
      <p>
        Thread <code>{props.threadId}</code> and all its checkpoints will be deleted. This cannot be
        undone.
      </p>
      {error ? <p role="alert">{error}</p> : null}
      <div class="actions">
        {/* Cancel first: the dialog opens with focus on it, not on the deletion. */}
        <button type="button" onClick={props.onClose}>
          Cancel
        </button>
        <button type="button" class="danger" onClick={remove} disabled={working}>
          Delete
        </button>
      </div>
    </Modal>
  );
}
