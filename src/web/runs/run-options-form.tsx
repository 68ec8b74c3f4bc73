/**
 * The run form's "Run options" (run-options.ts): the model, from the graph's configuration schema;
 * the tools its models may call; breakpoints before and after the nodes; the recursion limit.
 * Each group is a fieldset named by its legend, each choice a labelled control, so it is used from
 * the keyboard and read by a screen reader as what it is.
 */
import type { RunChoices, RunOptions } from "./run-options.js";
import { recursionLimitProblem } from "./run-options.js";

const toggled = (list: string[], item: string, on: boolean) =>
  on ? [...list.filter((x) => x !== item), item] : list.filter((x) => x !== item);

function Checkboxes(props: {
  legend: string;
  id: string;
  items: string[];
  checked: (item: string) => boolean;
  onToggle: (item: string, on: boolean) => void;
  disabled: boolean;
  help: string;
}) {
  if (!props.items.length) return null;
  return (
    <fieldset class="choices" aria-describedby={`${props.id}-help`}>
      <legend>{props.legend}</legend>
      <div class="choice-list">
        {props.items.map((item) => (
          <label key={item} class="choice">
            <input
              type="checkbox"
              checked={props.checked(item)}
              disabled={props.disabled}
              onChange={(e) => props.onToggle(item, e.currentTarget.checked)}
            />
            {item}
          </label>
        ))}
      </div>
      <p id={`${props.id}-help`} class="help">
        {props.help}
      </p>
    </fieldset>
  );
}

export function RunOptionsForm(props: {
  choices: RunChoices;
  /** The graph's nodes, for breakpoints. */
  nodes: string[];
  /** `provider:name` of each of the spec's models, by name (the assistant's metadata). */
  modelIds: Record<string, string>;
  value: RunOptions;
  onChange: (next: RunOptions) => void;
  disabled: boolean;
}) {
  const { value, choices } = props;
  const set = (patch: Partial<RunOptions>) => props.onChange({ ...value, ...patch });
  const limitProblem = recursionLimitProblem(value.recursionLimit);
  return (
    <fieldset class="run-options">
      <legend>Run options</legend>
      {choices.models.length ? (
        <div class="field">
          <label for="run-model">Model</label>
          <select
            id="run-model"
            aria-describedby="run-model-help"
            value={value.model}
            disabled={props.disabled}
            onChange={(e) => set({ model: e.currentTarget.value })}
          >
            <option value="">The spec's own models</option>
            {choices.models.map((m) => (
              <option key={m} value={m}>
                {props.modelIds[m] ? `${m} (${props.modelIds[m]})` : m}
              </option>
            ))}
          </select>
          <p id="run-model-help" class="help">
            A model the spec's <code>allow</code> lists name answers in place of the one that allows
            it (<code>config.configurable.model</code>).
          </p>
        </div>
      ) : null}
      <Checkboxes
        legend="Tools the models may call"
        id="run-tools"
        items={choices.tools}
        checked={(t) => !value.toolsOff.includes(t)}
        onToggle={(t, on) => set({ toolsOff: toggled(value.toolsOff, t, !on) })}
        disabled={props.disabled}
        help="A call of a tool left out comes back to the model as a policy_denied error (config.configurable.toolIds)."
      />
      <Checkboxes
        legend="Pause before"
        id="run-pause-before"
        items={props.nodes}
        checked={(n) => value.pauseBefore.includes(n)}
        onToggle={(n, on) => set({ pauseBefore: toggled(value.pauseBefore, n, on) })}
        disabled={props.disabled}
        help="Breakpoints for this run (interrupt_before): it stops before each node checked; Continue goes on."
      />
      <Checkboxes
        legend="Pause after"
        id="run-pause-after"
        items={props.nodes}
        checked={(n) => value.pauseAfter.includes(n)}
        onToggle={(n, on) => set({ pauseAfter: toggled(value.pauseAfter, n, on) })}
        disabled={props.disabled}
        help="It stops after each node checked (interrupt_after)."
      />
      <div class="field">
        <label for="run-recursion-limit">Recursion limit</label>
        <input
          id="run-recursion-limit"
          type="number"
          min={1}
          max={10000}
          step={1}
          inputMode="numeric"
          value={value.recursionLimit}
          disabled={props.disabled}
          aria-invalid={limitProblem ? "true" : undefined}
          aria-describedby={
            limitProblem
              ? "run-recursion-limit-error run-recursion-limit-help"
              : "run-recursion-limit-help"
          }
          onInput={(e) => set({ recursionLimit: e.currentTarget.value })}
        />
        {limitProblem ? (
          <p id="run-recursion-limit-error" class="field-error">
            {limitProblem}
          </p>
        ) : null}
        <p id="run-recursion-limit-help" class="help">
          The most steps the run may take (config.recursion_limit); empty: the spec's
          limits.recursion or LangGraph's 25.
        </p>
      </div>
    </fieldset>
  );
}
