/**
 * A secret the server asks for again: a thread never keeps its context's secrets (docs/spec.md,
 * "secret"), so a Continue, a Retry, an answer or a "Run from here" on it is refused
 * (`invalid-context` naming the field) until the secret is given with it. The dialog names the
 * field, says why, and takes the value in a password input; the run is then sent again with it.
 */
import { useId, useState } from "preact/hooks";
import { coerce, fieldsOf, type JsonSchema } from "../forms/schema-fields.js";
import { Modal } from "../threads/modal.js";
import type { ServerProblem } from "./server-problem.js";

/** The secret context field `problem` asks for, when it is one (`writeOnly` in the context schema). */
export function secretAskedFor(
  problem: ServerProblem | undefined,
  context: JsonSchema | undefined,
): string | undefined {
  const field = problem?.code === "invalid-context" ? problem.field : undefined;
  return field && context?.properties?.[field]?.writeOnly === true ? field : undefined;
}

export function SecretDialog(props: {
  field: string;
  context: JsonSchema;
  /** The server's refusal; none when the page knows beforehand that the secret is needed. */
  problem?: ServerProblem | undefined;
  onSend: (context: Record<string, unknown>) => void;
  onClose: () => void;
}) {
  const inputId = useId();
  const helpId = useId();
  const [text, setText] = useState("");
  const [error, setError] = useState<string | undefined>();
  const field = fieldsOf(props.context).find((f) => f.name === props.field);
  const send = (e: Event) => {
    e.preventDefault();
    if (!field) return;
    const value = coerce(field, text);
    if (!text) setError(`${props.field} is required`);
    else if (!value.ok) setError(value.error);
    else props.onSend({ [props.field]: value.value });
  };
  return (
    <Modal title={`Secret needed: ${props.field}`} onClose={props.onClose}>
      <form class="secret-dialog" aria-label="Secret needed" onSubmit={send}>
        <p id={helpId}>
          {props.problem
            ? `${props.problem.message}.`
            : `The run needs ${props.field}, a secret of the run's context.`}{" "}
          A secret is never kept with the thread: give it again to go on.
        </p>
        <label for={inputId}>{props.field}</label>
        <input
          id={inputId}
          type="password"
          autocomplete="off"
          aria-describedby={helpId}
          aria-invalid={error ? true : undefined}
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
        />
        {error ? (
          <p role="alert" class="field-error">
            {error}
          </p>
        ) : null}
        <p class="actions">
          <button type="submit" class="primary">
            Run with it
          </button>
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
        </p>
      </form>
    </Modal>
  );
}
