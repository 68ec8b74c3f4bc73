/**
 * The forms that answer a paused run: one `<form aria-label="Answer interrupt">` per pending
 * interrupt — a question gets a form from its `response_schema` and "Resume"; a tool approval
 * gets "Approve", "Edit" (the arguments as JSON) and "Reject" (with a message) per tool call.
 */
import { useState } from "preact/hooks";
import type { JsonSchema } from "../forms/schema-fields.js";
import { wholeValueOf } from "../forms/schema-fields.js";
import { formValue, initialFormState, SchemaForm } from "../forms/schema-form.js";
import {
  type ActionRequest,
  type Choice,
  decisionsOf,
  type InterruptAsk,
  interruptAsk,
  resumeFor,
} from "./interrupt-answer.js";
import type { ServerProblem } from "./server-problem.js";
import type { PendingInterrupt } from "./use-run.js";

const shown = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v, null, 2));

export function InterruptForms(props: {
  interrupts: PendingInterrupt[];
  busy: boolean;
  problem: ServerProblem | undefined;
  onResume: (resume: unknown) => void;
}) {
  if (!props.interrupts.length) return null;
  const ids = props.interrupts.map((i) => i.id);
  return (
    <section aria-labelledby="interrupts-title" class="interrupts">
      <h3 id="interrupts-title">
        {props.interrupts.length === 1
          ? "The run waits for an answer"
          : `The run waits for ${props.interrupts.length} answers`}
      </h3>
      {props.problem ? (
        <p role="alert" class="form-problem">
          The server refused the answer: {props.problem.message}
          {props.problem.hint ? ` (${props.problem.hint})` : null}
        </p>
      ) : null}
      {props.interrupts.map((i) => {
        const ask = interruptAsk(i.value);
        const send = (value: unknown) => props.onResume(resumeFor(ids, i.id, value));
        return ask.kind === "approval" ? (
          <ApprovalForm
            key={i.id}
            interrupt={i}
            actions={ask.actions}
            busy={props.busy}
            onAnswer={send}
          />
        ) : (
          <QuestionForm key={i.id} interrupt={i} ask={ask} busy={props.busy} onAnswer={send} />
        );
      })}
    </section>
  );
}

function QuestionForm(props: {
  interrupt: PendingInterrupt;
  ask: Extract<InterruptAsk, { kind: "question" }>;
  busy: boolean;
  onAnswer: (value: unknown) => void;
}) {
  const { interrupt: i, ask } = props;
  // Without a schema, any JSON value answers it.
  const schema: JsonSchema = i.schema ?? {};
  const [state, setState] = useState(() => initialFormState(schema, ask.refused?.resume));
  const [checked, setChecked] = useState(false);
  const value = formValue(schema, state);
  const question =
    ask.payload &&
    typeof ask.payload === "object" &&
    typeof (ask.payload as Json).question === "string"
      ? ((ask.payload as Json).question as string)
      : undefined;
  const intro = (
    <>
      <p class="asked-by">
        <span class="node-name">{i.node}</span> asks:
      </p>
      {question ? <p class="question">{question}</p> : null}
      <pre class="payload">{shown(ask.payload)}</pre>
      {ask.refused ? (
        <div role="alert" class="form-problem">
          <p>{ask.refused.message}</p>
          {ask.refused.hint ? <p class="help">{ask.refused.hint}</p> : null}
        </div>
      ) : null}
    </>
  );
  return (
    <div class="interrupt">
      <SchemaForm
        label="Answer interrupt"
        id={`interrupt-${i.id}`}
        schema={schema}
        state={state}
        onState={setState}
        intro={intro}
        // A bare yes/no answers the question shown above it; any other bare value is "the answer".
        wholeLabel={schema.type === "boolean" ? "Yes" : "Answer"}
        errors={checked ? value.errors : {}}
        onSubmit={() => {
          setChecked(true);
          if (!props.busy && !Object.keys(value.errors).length) props.onAnswer(value.value);
        }}
      >
        <button type="submit" class="primary" disabled={props.busy}>
          Resume
        </button>
      </SchemaForm>
    </div>
  );
}

type Json = Record<string, unknown>;

function ApprovalForm(props: {
  interrupt: PendingInterrupt;
  actions: ActionRequest[];
  busy: boolean;
  onAnswer: (value: unknown) => void;
}) {
  const { actions, interrupt: i } = props;
  const [choices, setChoices] = useState<(Choice | undefined)[]>(() =>
    actions.map(() => undefined),
  );
  const [argTexts, setArgTexts] = useState(() =>
    actions.map((a) => JSON.stringify(a.args, null, 2)),
  );
  const [argErrors, setArgErrors] = useState<(string | undefined)[]>([]);
  const choose = (n: number, choice: Choice) => {
    const next = choices.slice();
    next[n] = choice;
    setChoices(next);
    // One tool call approved: nothing more to ask.
    if (choice.type === "approve" && actions.length === 1) send(next);
  };
  const send = (chosen: (Choice | undefined)[]) => {
    const errors: (string | undefined)[] = [];
    const final = chosen.map((c, n) => {
      if (c?.type !== "edit") return c;
      const parsed = wholeValueOf({ type: "object", properties: {} }, argTexts[n] ?? "");
      errors[n] = Object.values(parsed.errors)[0];
      return { ...c, args: parsed.value as Record<string, unknown> };
    });
    setArgErrors(errors);
    const answer = decisionsOf(actions, final);
    if (answer && !errors.some(Boolean) && !props.busy) props.onAnswer(answer);
  };
  const needsResume = actions.length > 1 || choices.some((c) => c && c.type !== "approve");
  return (
    <form
      aria-label="Answer interrupt"
      class="interrupt approval"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        send(choices);
      }}
    >
      <p class="asked-by">
        <span class="node-name">{i.node}</span> asks before it calls{" "}
        {actions.length === 1 ? "a tool" : `${actions.length} tools`}:
      </p>
      {actions.map((a, n) => {
        const c = choices[n];
        const id = `approve-${i.id}-${n}`;
        return (
          <fieldset key={id} class="action">
            <legend>{a.name}</legend>
            <pre class="payload">{shown(a.args)}</pre>
            <div class="form-actions">
              {a.allowed.includes("approve") ? (
                <button
                  type="button"
                  class="primary"
                  aria-pressed={c?.type === "approve"}
                  disabled={props.busy}
                  onClick={() => choose(n, { type: "approve" })}
                >
                  Approve
                </button>
              ) : null}
              {a.allowed.includes("edit") ? (
                <button
                  type="button"
                  class="secondary"
                  aria-pressed={c?.type === "edit"}
                  disabled={props.busy}
                  onClick={() => choose(n, { type: "edit" })}
                >
                  Edit
                </button>
              ) : null}
              {a.allowed.includes("reject") ? (
                <button
                  type="button"
                  class="danger"
                  aria-pressed={c?.type === "reject"}
                  disabled={props.busy}
                  onClick={() => choose(n, { type: "reject", message: "" })}
                >
                  Reject
                </button>
              ) : null}
            </div>
            {c?.type === "edit" ? (
              <div class="field">
                <label for={`${id}-args`}>Arguments of {a.name}</label>
                <textarea
                  id={`${id}-args`}
                  class="json"
                  rows={5}
                  spellcheck={false}
                  value={argTexts[n]}
                  aria-invalid={argErrors[n] ? true : undefined}
                  aria-describedby={argErrors[n] ? `${id}-args-error` : undefined}
                  onInput={(e) => {
                    const next = argTexts.slice();
                    next[n] = e.currentTarget.value;
                    setArgTexts(next);
                  }}
                />
                {argErrors[n] ? (
                  <p id={`${id}-args-error`} class="field-error">
                    {argErrors[n]}
                  </p>
                ) : null}
              </div>
            ) : null}
            {c?.type === "reject" ? (
              <div class="field">
                <label for={`${id}-message`}>Message to the model</label>
                <input
                  id={`${id}-message`}
                  type="text"
                  value={c.message ?? ""}
                  onInput={(e) => {
                    const next = choices.slice();
                    next[n] = { type: "reject", message: e.currentTarget.value };
                    setChoices(next);
                  }}
                />
              </div>
            ) : null}
          </fieldset>
        );
      })}
      {needsResume ? (
        <div class="form-actions">
          <button type="submit" class="primary" disabled={props.busy || choices.some((c) => !c)}>
            Resume
          </button>
        </div>
      ) : null}
    </form>
  );
}
