/**
 * The run's steps, and its output: select a step (here, or its node in the drawing) to see the
 * state its nodes got, what each wrote, what changed, and the state after it.
 */
import { hrefOf } from "../route.js";
import { Changes } from "../threads/checkpoint-timeline.js";
import { StateValues } from "../threads/state-values.js";
import type { RunStatus } from "./run-progress.js";
import { type RunStep, stepName } from "./run-steps.js";

export function StepsPanel(props: {
  steps: RunStep[];
  selected: string | undefined;
  onSelect: (id: string | undefined) => void;
  error: string | undefined;
  /** The thread, when older steps than those listed were left out: its page has them. */
  olderOn?: string | undefined;
  /** Tasks' inputs seen in the run's stream, by task id (RunProgress.taskInputs). */
  inputs: Record<string, unknown>;
}) {
  const chosen = props.steps.find((s) => s.id === props.selected);
  return (
    <section aria-label="Steps" class="panel steps">
      <h3>Steps</h3>
      {props.error ? <p role="alert">Could not read the steps: {props.error}</p> : null}
      {props.steps.length ? (
        <ol class="step-list">
          {props.steps.map((s) => (
            <li key={s.id}>
              <button
                type="button"
                aria-pressed={s.id === props.selected}
                onClick={() => props.onSelect(s.id === props.selected ? undefined : s.id)}
              >
                Step {s.step}: {stepName(s)}
              </button>
            </li>
          ))}
        </ol>
      ) : (
        <p class="hint">
          No steps yet. Each step's input, update and state show here as the run goes.
        </p>
      )}
      {props.olderOn ? (
        <p class="hint">
          The newest steps only:{" "}
          <a href={hrefOf({ view: "threads", thread: props.olderOn })}>the thread's page</a> has
          them all.
        </p>
      ) : null}
      {chosen ? <StepDetail step={chosen} inputs={props.inputs} /> : null}
    </section>
  );
}

function StepDetail(props: { step: RunStep; inputs: Record<string, unknown> }) {
  const s = props.step;
  const name = `Step ${s.step}: ${stepName(s)}`;
  const seen = s.updates.some((u) => u.task in props.inputs);
  return (
    <section aria-label={name} class="step-detail">
      <h4>Input</h4>
      {/* Each task's own input when the page saw the run (a map run's differs); else the state before. */}
      {seen ? (
        s.updates.map((u) => (
          <div key={u.task} class="step-update" data-node={u.node}>
            {s.updates.length > 1 ? <p class="node-name">{u.node}</p> : null}
            <StateValues values={u.task in props.inputs ? props.inputs[u.task] : s.before} />
          </div>
        ))
      ) : (
        <StateValues values={s.before} />
      )}
      <h4>Update</h4>
      {s.updates.map((u) => (
        <div key={u.task} class="step-update" data-node={u.node}>
          {s.updates.length > 1 ? <p class="node-name">{u.node}</p> : null}
          {u.update === undefined || u.update === null ? (
            <p class="hint">Wrote nothing.</p>
          ) : (
            <StateValues values={u.update} />
          )}
        </div>
      ))}
      <h4>Changes</h4>
      <Changes before={s.before} after={s.after} known={true} />
      <h4>State after</h4>
      <StateValues values={s.after} />
    </section>
  );
}

/** The final state's values (the output schema's keys) once the run finished. */
export function OutputPanel(props: {
  status: RunStatus | undefined;
  output: Record<string, unknown> | undefined;
}) {
  // Finished, its last checkpoint not read yet: busy, never an earlier step's state as the output.
  const reading = props.status === "success" && !props.output;
  return (
    <section aria-label="Output" class="panel output" aria-busy={reading ? "true" : undefined}>
      <h3>Output</h3>
      {props.status === "success" && props.output ? (
        <StateValues values={props.output} />
      ) : (
        <p class="hint">
          {props.status === "interrupted"
            ? "Paused: the state so far is the last step's."
            : props.status === "error"
              ? "The run failed: the state it reached is the last step's."
              : reading
                ? "Reading the output…"
                : "Shown when the run finishes."}
        </p>
      )}
    </section>
  );
}
