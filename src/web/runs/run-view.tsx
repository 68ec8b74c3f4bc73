/**
 * A run of one graph (`#/graphs/<g>/run[?thread=<id>]`): input and context forms from the
 * assistant's schemas, "Start run", then the run as it goes — the graph with its nodes lighting
 * up, the status, streamed text, tool calls, usage — and the forms that answer its interrupts;
 * its steps (each one's input, update and changes: steps-panel.tsx) and its output. A save
 * that builds redraws the graph here too; a refused one shows its diagnostics.
 */
import type { Assistant } from "@langchain/langgraph-sdk";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { type DrawableGraph, END_ID, START_ID } from "../../draw/drawable.js";
import { client } from "../api.js";
import { GraphDrawing } from "../draw/graph-drawing.js";
import type { JsonSchema } from "../forms/schema-fields.js";
import {
  formValue,
  initialFormState,
  SchemaForm,
  type SchemaFormState,
} from "../forms/schema-form.js";
import { DiagnosticsList } from "../graphs/diagnostics-list.js";
import { type GraphMeta, graphMetaOf } from "../graphs/graph-meta.js";
import { focusElement } from "../view-focus.js";
import { ChatBox } from "./chat-box.js";
import { InterruptForms } from "./interrupt-forms.js";
import { costOf, formatUsd, modelsOfMetadata, type PricedModel } from "./run-cost.js";
import {
  choicesOfConfigSchema,
  type RunChoices,
  type RunOptions,
  recursionLimitProblem,
} from "./run-options.js";
import { RunOptionsForm } from "./run-options-form.js";
import { keepRunOptions, keptRunOptions } from "./run-options-memory.js";
import {
  MessagesPanel,
  RunFailureNote,
  RunStatusLine,
  ToolCallsPanel,
  UsagePanel,
} from "./run-panels.js";
import { lastStepOf, outputOf, stepsOf } from "./run-steps.js";
import { contextGivenBy, optionsOfAssistant } from "./saved-assistant.js";
import { keepAssistant, keptAssistant } from "./saved-assistant-memory.js";
import { SavedAssistantPicker } from "./saved-assistant-picker.js";
import { SecretDialog, secretAskedFor } from "./secret-dialog.js";
import { formOfProblem, type ServerProblem, serverProblem } from "./server-problem.js";
import {
  initialStandIn,
  keepStandIn,
  type StandInOffer,
  standInsOfMetadata,
  type WithoutStandIn,
  withoutStandInOf,
} from "./stand-in.js";
import { StandInChoice } from "./stand-in-choice.js";
import { OutputPanel, StepsPanel } from "./steps-panel.js";
import { useRun } from "./use-run.js";
import { useRunSteps } from "./use-run-steps.js";

/**
 * After Resume or Continue the form or button that was focused goes away: focus the run's status
 * instead (it says what the run does now), so the keyboard is not sent back to the page's top.
 */
function focusRunStatus() {
  const status = document.querySelector<HTMLElement>('.run-view [role="status"]');
  if (status) focusElement(status);
}

export function RunView(props: { assistant: Assistant; thread?: string }) {
  // Keyed by graph: another graph's run view starts afresh, not with this one's forms and run.
  return (
    <RunPage
      key={props.assistant.assistant_id}
      graph={props.assistant.graph_id}
      assistantId={props.assistant.assistant_id}
      name={props.assistant.name}
      revision={`${props.assistant.version}@${props.assistant.updated_at}`}
      meta={graphMetaOf(props.assistant)}
      thread={props.thread}
      models={modelsOfMetadata(props.assistant.metadata)}
      standIns={standInsOfMetadata(props.assistant.metadata)}
      withoutStandIn={withoutStandInOf(props.assistant.metadata)}
    />
  );
}

interface Loaded {
  input: JsonSchema;
  context: JsonSchema;
  output: JsonSchema | undefined;
  drawing: DrawableGraph;
  /** The configuration schema's choices: allowed models, tools. */
  choices: RunChoices;
}

/** Read again when a save builds (`revision` moves); the last good one stays meanwhile. */
function useGraphDetails(assistantId: string, revision: string) {
  const [loaded, setLoaded] = useState<Loaded | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    let stopped = false;
    Promise.all([
      client.assistants.getSchemas(assistantId),
      client.assistants.getGraph(assistantId),
    ])
      .then(([schemas, drawing]) => {
        if (stopped) return;
        setLoaded({
          input: (schemas.input_schema ?? { type: "object", properties: {} }) as JsonSchema,
          context: (schemas.context_schema ?? { type: "object", properties: {} }) as JsonSchema,
          output: (schemas.output_schema ?? undefined) as JsonSchema | undefined,
          drawing: drawing as unknown as DrawableGraph,
          choices: choicesOfConfigSchema(schemas.config_schema),
        });
        setError(undefined);
      })
      .catch((e) => !stopped && setError(serverProblem(e).message));
    return () => {
      stopped = true;
    };
  }, [assistantId, revision]);
  return { loaded, error };
}

function RunPage(props: {
  graph: string;
  assistantId: string;
  name: string;
  revision: string;
  meta: GraphMeta | undefined;
  thread: string | undefined;
  models: Record<string, PricedModel>;
  standIns: StandInOffer[];
  withoutStandIn: WithoutStandIn;
}) {
  const { loaded, error } = useGraphDetails(props.assistantId, props.revision);
  return (
    <section aria-labelledby="run-title" class="run-view">
      <h2 id="run-title">Run {props.name}</h2>
      {/* A refused save: runs go on with the version that serves, as the list says. */}
      {props.meta?.refused ? <DiagnosticsList meta={props.meta} /> : null}
      {error ? (
        <p role="alert">
          Could not load {props.name}: {error}
        </p>
      ) : null}
      {loaded ? <RunBody {...props} loaded={loaded} /> : error ? null : <p>Loading…</p>}
    </section>
  );
}

function ProblemNote(props: { problem: ServerProblem }) {
  return (
    <div role="alert" class="form-problem">
      <p>
        The server refused the run: {props.problem.message}
        {props.problem.code ? ` [${props.problem.code}]` : null}
      </p>
      {props.problem.hint ? <p class="help">{props.problem.hint}</p> : null}
    </div>
  );
}

/**
 * Why Cancel did not stop the run: the server's message, its code and its hint (or what to do when
 * it gave none). Announced (role=alert) and focused: the Cancel button may be gone by then.
 */
function CancelFailureNote(props: { problem: ServerProblem }) {
  const { problem } = props;
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (ref.current) focusElement(ref.current);
  }, [problem]);
  return (
    <div role="alert" class="form-problem cancel-failure" ref={ref}>
      <p>
        <strong>The run was not cancelled:</strong> {problem.message}
        {problem.code ? (
          <>
            {" "}
            <code class="error-code">{problem.code}</code>
          </>
        ) : null}
      </p>
      <p class="help">
        {problem.hint ??
          "The run goes on as its status says: press Cancel run again, or reload the page to see where it stands."}
      </p>
    </div>
  );
}

function RunBody(props: {
  graph: string;
  assistantId: string;
  name: string;
  thread: string | undefined;
  models: Record<string, PricedModel>;
  standIns: StandInOffer[];
  withoutStandIn: WithoutStandIn;
  loaded: Loaded;
}) {
  const { loaded } = props;
  const [standIn, setStandIn] = useState(() =>
    initialStandIn(
      props.graph,
      props.standIns,
      Object.keys(props.models).length > 0,
      props.withoutStandIn,
    ),
  );
  const chooseStandIn = (id: string) => {
    setStandIn(id);
    keepStandIn(props.graph, id);
  };
  const nodes = loaded.drawing.nodes
    .map((n) => n.id)
    .filter((id) => id !== START_ID && id !== END_ID && !id.includes(":"));
  const [options, setOptions] = useState<RunOptions>(() =>
    keptRunOptions(props.graph, loaded.choices, nodes),
  );
  const chooseOptions = (next: RunOptions) => {
    setOptions(next);
    keepRunOptions(props.graph, next);
  };
  // A saved assistant picked on the form: runs start with its id (saved-assistant-picker.tsx).
  // Kept for the tab, as the run options are: a reload comes back to it.
  const [savedId, setSavedId] = useState(() => keptAssistant(props.graph));
  const [saved, setSaved] = useState<Assistant | undefined>(undefined);
  const readSaved = (a: Assistant | undefined) => {
    setSaved(a);
    setSavedId(a?.assistant_id ?? "");
    keepAssistant(props.graph, a?.assistant_id ?? "");
  };
  const pickSaved = (a: Assistant | undefined) => {
    readSaved(a);
    if (a) chooseOptions(optionsOfAssistant(a.config, loaded.choices, nodes));
  };
  const run = useRun(props.graph, savedId || props.assistantId, props.thread, standIn, {
    options,
    choices: loaded.choices,
  });
  const chat = isMessageList(loaded.input.properties?.messages);
  const [input, setInput] = useState<SchemaFormState>(() => initialFormState(loaded.input));
  const [context, setContext] = useState<SchemaFormState>(() => initialFormState(loaded.context));
  const [checked, setChecked] = useState(false);
  // What the picked assistant's context gives is not asked for again (left empty, it applies).
  const contextSchema = useMemo(
    () => contextGivenBy(loaded.context, saved),
    [loaded.context, saved],
  );

  const inputValue = formValue(loaded.input, input);
  const contextValue = formValue(contextSchema, context);
  const startProblem = run.problem?.from === "start" ? run.problem.problem : undefined;
  // A Continue, Retry or answer refused: a secret the thread does not keep is asked for again.
  const resumeProblem = run.problem?.from === "resume" ? run.problem.problem : undefined;
  const secretField = secretAskedFor(resumeProblem, loaded.context);
  const [secretClosed, closeSecret] = useState<ServerProblem | undefined>(undefined);
  const problemForm = startProblem ? formOfProblem(startProblem) : undefined;
  const errorsOf = (form: "input" | "context", own: Record<string, string>) => ({
    ...(checked ? own : {}),
    ...(startProblem && problemForm === form && startProblem.field
      ? { [startProblem.field]: startProblem.message }
      : {}),
  });

  const cost = costOf(run.progress.usageByMessage, props.models);
  const { history, error: stepsError, more } = useRunSteps(run.thread, run.progress.status);
  const steps = useMemo(() => stepsOf(history), [history]);
  const [selectedStep, selectStep] = useState<string | undefined>(undefined);
  const chosen = steps.find((s) => s.id === selectedStep);
  // The output is the thread's last checkpoint's, once read: until the read after the run's end
  // arrives, the newest one read is a step's (its `next` not empty), not what the run returned.
  const latest = history[0];
  const output =
    latest && !(latest.next ?? []).length
      ? outputOf(latest.values as Record<string, unknown>, loaded.output)
      : undefined;

  const submit = () => {
    setChecked(true);
    if (run.busy) return;
    if (Object.keys(inputValue.errors).length || Object.keys(contextValue.errors).length) return;
    if (recursionLimitProblem(options.recursionLimit)) return;
    run.start(
      inputValue.value as Record<string, unknown>,
      contextValue.value as Record<string, unknown>,
    );
  };

  // Three areas: at 1200px and wider the drawing is a sticky right column beside the forms and
  // the panels (style.css "Run view"), so the nodes lighting up stay in view while text streams.
  return (
    <div class="run-layout">
      <div class="run-controls">
        <div class="run-forms">
          <StandInChoice
            offers={props.standIns}
            value={standIn}
            onChange={chooseStandIn}
            disabled={run.busy}
            withoutOne={props.withoutStandIn}
          />
          <h3>Input</h3>
          <SchemaForm
            label="Input"
            id="run-input"
            schema={loaded.input}
            state={input}
            onState={setInput}
            errors={errorsOf("input", inputValue.errors)}
            onSubmit={submit}
          >
            <button type="submit" class="primary" disabled={run.busy}>
              Start run
            </button>
          </SchemaForm>
          {startProblem && problemForm === "input" ? <ProblemNote problem={startProblem} /> : null}
          <h3>Context</h3>
          <SchemaForm
            label="Context"
            id="run-context"
            schema={contextSchema}
            state={context}
            onState={setContext}
            errors={errorsOf("context", contextValue.errors)}
            onSubmit={submit}
          />
          {startProblem && problemForm !== "input" ? <ProblemNote problem={startProblem} /> : null}
          <RunOptionsForm
            choices={loaded.choices}
            nodes={nodes}
            modelIds={Object.fromEntries(
              Object.entries(props.models).map(([name, m]) => [name, m.model]),
            )}
            value={options}
            onChange={chooseOptions}
            disabled={run.busy}
          />
          <SavedAssistantPicker
            graph={props.graph}
            choices={loaded.choices}
            options={options}
            context={contextValue.value as Record<string, unknown>}
            value={savedId}
            onPick={pickSaved}
            onRead={readSaved}
            disabled={run.busy}
          />
        </div>
        <RunStatusLine
          progress={run.progress}
          thread={run.thread}
          pausedBefore={run.pausedBefore}
        />
        {run.busy && run.progress.runId && run.thread ? (
          <p>
            <button type="button" class="danger" onClick={() => run.cancel()}>
              Cancel run
            </button>
          </p>
        ) : null}
        {run.cancelProblem ? <CancelFailureNote problem={run.cancelProblem} /> : null}
        <RunFailureNote progress={run.progress} />
        {run.failedAt.length > 0 && !run.interrupts.length ? (
          <p class="retry">
            <button
              type="button"
              class="primary"
              disabled={run.busy}
              aria-describedby="retry-help"
              onClick={() => {
                run.continueRun();
                focusRunStatus();
              }}
            >
              Retry
            </button>{" "}
            <span id="retry-help" class="help">
              Runs {run.failedAt.join(", ")} again from the last checkpoint (after a fix, say). To
              change the state first, fork it from the thread's page.
            </span>
          </p>
        ) : null}
        {resumeProblem && !run.interrupts.length ? <ProblemNote problem={resumeProblem} /> : null}
        {secretField && resumeProblem && secretClosed !== resumeProblem ? (
          <SecretDialog
            field={secretField}
            context={loaded.context}
            problem={resumeProblem}
            onClose={() => closeSecret(resumeProblem)}
            onSend={(context) => {
              closeSecret(resumeProblem);
              run.again(context);
              focusRunStatus();
            }}
          />
        ) : null}
        {run.pausedBefore.length > 0 && !run.interrupts.length ? (
          <p>
            <button
              type="button"
              class="primary"
              disabled={run.busy}
              onClick={() => {
                run.continueRun();
                focusRunStatus();
              }}
            >
              Continue
            </button>
          </p>
        ) : null}
        <InterruptForms
          interrupts={run.interrupts}
          busy={run.busy}
          problem={run.problem?.from === "resume" ? run.problem.problem : undefined}
          onResume={(resume) => {
            run.resume(resume);
            focusRunStatus();
          }}
        />
        {chat && !run.interrupts.length && !run.pausedBefore.length ? (
          <ChatBox
            thread={run.thread}
            disabled={run.busy}
            onSend={(text) => {
              if (Object.keys(contextValue.errors).length) {
                setChecked(true);
                return;
              }
              run.send(
                text,
                (inputValue.value ?? {}) as Record<string, unknown>,
                contextValue.value as Record<string, unknown>,
              );
            }}
          />
        ) : null}
      </div>
      <div class="run-drawing">
        <GraphDrawing
          name={props.name}
          graph={loaded.drawing}
          status={run.progress.nodes}
          assistantId={props.assistantId}
          selected={new Set(chosen?.nodes ?? [])}
          onNodeClick={(node) => selectStep(lastStepOf(steps, node)?.id)}
        />
      </div>
      <div class="run-panels">
        <StepsPanel
          steps={steps}
          selected={selectedStep}
          onSelect={selectStep}
          error={stepsError}
          olderOn={more ? run.thread : undefined}
          inputs={run.progress.taskInputs}
        />
        <OutputPanel status={run.progress.status} output={output} />
        <MessagesPanel progress={run.progress} />
        <ToolCallsPanel progress={run.progress} />
        <UsagePanel
          progress={run.progress}
          cost={cost === undefined ? undefined : formatUsd(cost)}
        />
      </div>
    </div>
  );
}

/** A graph with a `messages` list in its input chats (LangGraph Studio's chat mode). */
const isMessageList = (schema: JsonSchema | undefined): boolean =>
  schema !== undefined && schema.type === "array";
