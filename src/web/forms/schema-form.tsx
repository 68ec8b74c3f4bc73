/**
 * A form built from a JSON Schema: one labelled control per property (text, number, checkbox,
 * select for enums, a JSON textarea for arrays and objects), required fields marked, defaults
 * filled, descriptions as help text, and a switch to edit the whole value as JSON.
 *
 * Hand-written rather than a library: react-jsonschema-form needs React and weighs ~300 kB, and
 * the schemas here are flat objects of a few fields (schema-fields.ts holds the logic, tested).
 */
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import {
  type Field,
  type FormValue,
  fieldsOf,
  fieldsValue,
  initialTexts,
  JSON_EDITOR,
  type JsonSchema,
  WHOLE,
  wholeValueOf,
} from "./schema-fields.js";

/** What a person has typed: each field's text, or the whole value's JSON when editing it as JSON. */
export interface SchemaFormState {
  texts: Record<string, string>;
  json: string | undefined;
}

export const initialFormState = (schema: JsonSchema, value?: unknown): SchemaFormState => ({
  texts: initialTexts(schema, value),
  json: undefined,
});

export const formValue = (schema: JsonSchema, s: SchemaFormState): FormValue =>
  s.json === undefined ? fieldsValue(schema, s.texts) : wholeValueOf(schema, s.json);

/** A form's state, kept by the view that sends it. */
export function useSchemaForm(schema: JsonSchema, value?: unknown) {
  return useState(() => initialFormState(schema, value));
}

export function SchemaForm(props: {
  /** The form's accessible name ("Input", "Context", "Answer interrupt"). */
  label: string;
  /** Unique on the page: the prefix of the controls' ids. */
  id: string;
  schema: JsonSchema;
  state: SchemaFormState;
  onState: (s: SchemaFormState) => void;
  /** Problems to show on fields (by name) — the form's own, and the server's. */
  errors?: Record<string, string>;
  onSubmit?: () => void;
  /** Shown first inside the form (what an interrupt asks). */
  intro?: ComponentChildren;
  /** The form's buttons, before "Write as JSON". */
  children?: ComponentChildren;
  /** The label of the one field of a schema that is not an object, when it has no `title`. */
  wholeLabel?: string;
}) {
  const { schema, state, onState, id } = props;
  const fields = fieldsOf(schema);
  const errors = props.errors ?? {};
  const toggle = () => {
    if (state.json === undefined) {
      onState({
        ...state,
        json: JSON.stringify(fieldsValue(schema, state.texts).value ?? {}, null, 2),
      });
      return;
    }
    const whole = wholeValueOf(schema, state.json);
    // Back to fields only with JSON that parses: the typed text is never thrown away.
    if (!Object.keys(whole.errors).length)
      onState({ texts: initialTexts(schema, whole.value), json: undefined });
  };
  return (
    <form
      aria-label={props.label}
      class="schema-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit?.();
      }}
    >
      {props.intro}
      {state.json === undefined ? (
        fields.length ? (
          fields.map((f) => (
            <FieldControl
              key={f.name}
              field={f}
              label={f.name === WHOLE ? (f.schema.title ?? props.wholeLabel ?? WHOLE) : f.name}
              id={`${id}-${f.name}`}
              text={state.texts[f.name] ?? ""}
              error={errors[f.name]}
              onText={(t) => onState({ ...state, texts: { ...state.texts, [f.name]: t } })}
            />
          ))
        ) : (
          <p class="hint">No fields.</p>
        )
      ) : (
        <FieldShell
          id={`${id}-json`}
          label={`${props.label} as JSON`}
          required={false}
          error={errors[JSON_EDITOR]}
          help={undefined}
        >
          {(a) => (
            <textarea
              {...a}
              class="json"
              rows={8}
              spellcheck={false}
              value={state.json}
              onInput={(e) => onState({ ...state, json: e.currentTarget.value })}
            />
          )}
        </FieldShell>
      )}
      <div class="form-actions">
        {props.children}
        <button
          type="button"
          class="secondary"
          aria-pressed={state.json !== undefined}
          onClick={toggle}
        >
          Write as JSON
        </button>
      </div>
    </form>
  );
}

interface ControlAttrs {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
  required?: boolean;
}

/** A label, the control, its help text and its error, bound by ids. */
function FieldShell(props: {
  id: string;
  label: string;
  required: boolean;
  help: string | undefined;
  error: string | undefined;
  inline?: boolean;
  children: (attrs: ControlAttrs) => ComponentChildren;
}) {
  const helpId = `${props.id}-help`;
  const errorId = `${props.id}-error`;
  const describedBy = [props.help ? helpId : "", props.error ? errorId : ""]
    .filter(Boolean)
    .join(" ");
  const attrs: ControlAttrs = {
    id: props.id,
    ...(describedBy ? { "aria-describedby": describedBy } : {}),
    ...(props.error ? { "aria-invalid": true } : {}),
    ...(props.required ? { required: true } : {}),
  };
  const label = (
    <label for={props.id}>
      {props.label}
      {props.required ? (
        <span class="required" aria-hidden="true">
          {" "}
          *
        </span>
      ) : null}
    </label>
  );
  return (
    <div class={`field${props.inline ? " inline" : ""}`}>
      {props.inline ? (
        <>
          {props.children(attrs)}
          {label}
        </>
      ) : (
        <>
          {label}
          {props.children(attrs)}
        </>
      )}
      {props.help ? (
        <p id={helpId} class="help">
          {props.help}
        </p>
      ) : null}
      {props.error ? (
        <p id={errorId} class="field-error">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

function FieldControl(props: {
  field: Field;
  label: string;
  id: string;
  text: string;
  error: string | undefined;
  onText: (t: string) => void;
}) {
  const { field: f, text } = props;
  const { label } = props;
  const control = (a: ControlAttrs) => {
    switch (f.control) {
      case "checkbox":
        return (
          <input
            {...a}
            type="checkbox"
            checked={text === "true"}
            onChange={(e) => props.onText(e.currentTarget.checked ? "true" : "false")}
          />
        );
      case "select":
        return (
          <select {...a} value={text} onChange={(e) => props.onText(e.currentTarget.value)}>
            {f.required && text !== "" ? null : <option value="">—</option>}
            {f.options.map((o, i) => (
              <option key={String(i)} value={String(i)}>
                {typeof o === "string" ? o : JSON.stringify(o)}
              </option>
            ))}
          </select>
        );
      case "number":
      case "integer":
        return (
          <input
            {...a}
            type="number"
            step={f.control === "integer" ? "1" : "any"}
            value={text}
            onInput={(e) => props.onText(e.currentTarget.value)}
          />
        );
      case "json":
        return (
          <textarea
            {...a}
            class="json"
            rows={4}
            spellcheck={false}
            placeholder={f.schema.type === "array" ? "[]" : "{}"}
            value={text}
            onInput={(e) => props.onText(e.currentTarget.value)}
          />
        );
      default:
        // A secret (`writeOnly`: the thread does not keep it) is typed unseen.
        if (f.schema.writeOnly === true)
          return (
            <input
              {...a}
              type="password"
              autocomplete="off"
              value={text}
              onInput={(e) => props.onText(e.currentTarget.value)}
            />
          );
        return f.schema.format === "textarea" || Number(f.schema.maxLength ?? 0) > 200 ? (
          <textarea
            {...a}
            rows={4}
            value={text}
            onInput={(e) => props.onText(e.currentTarget.value)}
          />
        ) : (
          <input
            {...a}
            type="text"
            value={text}
            onInput={(e) => props.onText(e.currentTarget.value)}
          />
        );
    }
  };
  return (
    <FieldShell
      id={props.id}
      label={label}
      required={f.required && f.control !== "checkbox"}
      help={f.description ?? (f.control === "json" ? jsonHint(f) : undefined)}
      error={props.error}
      inline={f.control === "checkbox"}
    >
      {control}
    </FieldShell>
  );
}

const jsonHint = (f: Field) =>
  f.schema.type === "array" &&
  (f.schema.items as JsonSchema | undefined)?.type === "object" &&
  f.name === "messages"
    ? 'JSON, a list of messages: [{ "role": "user", "content": "…" }]'
    : `JSON (${f.schema.type === "array" ? "a list" : "an object"})`;
