/**
 * One thread: its status and graph, its state, the interrupts it waits on (answered in the run
 * view), its checkpoints as a timeline to run or fork from, and "Delete thread".
 */
import type { Thread, ThreadState } from "@langchain/langgraph-sdk";
import { useCallback, useEffect, useState } from "preact/hooks";
import { client } from "../api.js";
import type { JsonSchema } from "../forms/schema-fields.js";
import { latestOnly } from "../latest-only.js";
import { onPageEvent } from "../page-events.js";
import { hrefOf, navigate } from "../route.js";
import { keptRunChoices } from "../runs/kept-run-choices.js";
import { RUN_STREAM_MODES } from "../runs/run-progress.js";
import { SecretDialog, secretAskedFor } from "../runs/secret-dialog.js";
import { secretMissing } from "../runs/secret-needed.js";
import { type ServerProblem, serverProblem } from "../runs/server-problem.js";
import { failureText, statusOf } from "./api-failure.js";
import { CheckpointTimeline } from "./checkpoint-timeline.js";
import { DeleteDialog } from "./delete-dialog.js";
import { ForkDialog } from "./fork-dialog.js";
import { StateValues, ValueTree } from "./state-values.js";
import { ThreadFailure } from "./thread-failure.js";
import { ThreadStatus, When } from "./thread-list.js";

/** Checkpoints read at a time; "Older checkpoints" reads the next ones. */
export const HISTORY_PAGE = 50;

interface Loaded {
  thread: Thread;
  state: ThreadState;
  history: ThreadState[];
  /** The last page of history was full: there may be older checkpoints. */
  older: boolean;
}

export function ThreadPage(props: { id: string }) {
  const { id } = props;
  const [data, setData] = useState<Loaded | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [gone, setGone] = useState(false);
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const [forking, setForking] = useState<ThreadState | undefined>(undefined);
  const [deleting, setDeleting] = useState(false);
  const [working, setWorking] = useState(false);
  /** "Run from here" refused for a secret the thread does not keep: asked for, then run again. */
  const [asking, setAsking] = useState<
    | {
        from: ThreadState;
        field: string;
        context: JsonSchema;
        problem: ServerProblem | undefined;
        /** The secrets given so far. */
        given: Record<string, unknown>;
      }
    | undefined
  >(undefined);

  const reload = useCallback(async () => {
    try {
      const [thread, state, history] = await Promise.all([
        client.threads.get(id),
        client.threads.getState(id),
        client.threads.getHistory(id, { limit: HISTORY_PAGE }),
      ]);
      setData({ thread, state, history, older: history.length === HISTORY_PAGE });
      setError(undefined);
    } catch (e) {
      if (statusOf(e) === 404) setGone(true);
      else setError(failureText(e));
    }
  }, [id]);

  useEffect(() => {
    setData(undefined);
    setGone(false);
    setSelected(undefined);
    reload();
    // Read again when the server says this thread changed (a run's step, its end, a fork): a
    // run in progress is followed step by step, with no timer (page-events.ts).
    const again = latestOnly(reload);
    return onPageEvent((e) => {
      if ((e.type === "thread" && e.threadId === id) || e.type === "resync") again();
    });
  }, [reload, id]);
  const busy = data?.thread.status === "busy";

  const older = async () => {
    if (!data) return;
    const last = data.history.at(-1)?.checkpoint.checkpoint_id;
    if (!last) return;
    try {
      const page = await client.threads.getHistory(id, {
        limit: HISTORY_PAGE,
        before: { configurable: { checkpoint_id: last } },
      });
      setData({
        ...data,
        history: [...data.history, ...page],
        older: page.length === HISTORY_PAGE,
      });
    } catch (e) {
      setError(failureText(e));
    }
  };

  if (gone)
    return (
      <section aria-labelledby="thread-title">
        <h2 id="thread-title">Thread {id}</h2>
        <p role="alert">There is no thread {id}.</p>
        <p>
          <a href={hrefOf({ view: "threads" })}>All threads</a>
        </p>
      </section>
    );

  const graph =
    typeof data?.thread.metadata?.graph_id === "string" ? data.thread.metadata.graph_id : undefined;
  const runFrom = async (s: ThreadState, context?: Record<string, unknown>) => {
    if (!graph) return;
    setWorking(true);
    try {
      // The tab's choices for the graph (stand-in, run options, saved assistant), as the run view
      // sends them: the run answers from what the runs before it answered from.
      const kept = await keptRunChoices(graph);
      const { assistantId, ...choices } = kept.run;
      // A secret the thread never kept is asked for first: a background run without it would be
      // taken, then fail as it starts.
      const missing = secretMissing(kept.context, { ...kept.given, ...context });
      if (missing) {
        setAsking({
          from: s,
          field: missing,
          context: kept.context,
          problem: undefined,
          given: context ?? {},
        });
        return;
      }
      await client.runs.create(id, assistantId, {
        ...choices,
        input: null,
        ...(context ? { context } : {}),
        checkpointId: s.checkpoint.checkpoint_id ?? undefined,
        // What the run view shows, kept by the server so the run view can join it from the start.
        streamMode: [...RUN_STREAM_MODES],
        streamSubgraphs: true,
      });
      navigate({ view: "run", graph, thread: id });
    } catch (e) {
      const problem = serverProblem(e);
      const schema =
        problem.code === "invalid-context"
          ? ((await client.assistants.getSchemas(graph).catch(() => undefined))?.context_schema as
              | JsonSchema
              | undefined)
          : undefined;
      const field = secretAskedFor(problem, schema);
      if (field && schema)
        setAsking({ from: s, field, context: schema, problem, given: context ?? {} });
      else setError(`The run did not start: ${failureText(e)}`);
    } finally {
      setWorking(false);
    }
  };
  const pending =
    data?.state.tasks.flatMap((t) => t.interrupts.map((i) => ({ task: t.name, i }))) ?? [];

  return (
    <section aria-labelledby="thread-title" class="thread-page">
      <p class="breadcrumb">
        <a href={hrefOf({ view: "threads" })}>All threads</a>
      </p>
      <h2 id="thread-title">
        Thread{" "}
        <code class="long-id" title={id}>
          {id}
        </code>
      </h2>
      {error ? <p role="alert">{error}</p> : null}
      {!data && error ? (
        // A read that failed (the server restarting, the network): nothing else calls it again
        // unless the thread changes, and the actions below need the thread read.
        <p class="actions">
          <button type="button" onClick={reload}>
            Try again
          </button>
        </p>
      ) : !data ? (
        <p>Loading the thread…</p>
      ) : (
        <>
          <div class="thread-head">
            <dl class="thread-facts">
              <div>
                <dt>Status</dt>
                <dd>
                  <ThreadStatus status={data.thread.status} />
                </dd>
              </div>
              <div>
                <dt>Graph</dt>
                <dd>
                  {graph ? <a href={hrefOf({ view: "graph", graph })}>{graph}</a> : "not known"}
                </dd>
              </div>
              <div>
                <dt>Updated</dt>
                <dd>
                  <When at={data.thread.updated_at} />
                </dd>
              </div>
            </dl>
            <p class="actions">
              {/* Where a run on it is followed, cancelled, continued, or chatted on. */}
              {graph ? (
                <a class="button" href={hrefOf({ view: "run", graph, thread: id })}>
                  Open in the run view
                </a>
              ) : null}
              <button type="button" class="danger" onClick={() => setDeleting(true)}>
                Delete thread
              </button>
              <button type="button" onClick={reload}>
                Refresh
              </button>
            </p>
          </div>
          <ThreadFailure thread={data.thread} />
          {pending.length ? (
            <section aria-labelledby="interrupts-title" class="interrupts">
              <h3 id="interrupts-title">Waiting for an answer</h3>
              <ul>
                {pending.map(({ task, i }) => (
                  <li key={i.id ?? task}>
                    <span>
                      {task} asks: <ValueTree value={i.value} depth={1} />
                    </span>{" "}
                    {graph ? <a href={hrefOf({ view: "run", graph, thread: id })}>Answer</a> : null}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <section aria-label="State" class="state">
            <h3>State</h3>
            <StateValues values={data.state.values} />
          </section>
          <section aria-labelledby="checkpoints-title" class="checkpoints">
            <h3 id="checkpoints-title">Checkpoints</h3>
            {data.history.length ? (
              <CheckpointTimeline
                history={data.history}
                selected={selected}
                onSelect={setSelected}
                onRun={graph ? runFrom : undefined}
                onFork={setForking}
                working={working || busy}
              />
            ) : (
              <p class="empty-state">No checkpoints yet: the thread has not run.</p>
            )}
            {data.older ? (
              <button type="button" onClick={older}>
                Older checkpoints
              </button>
            ) : null}
          </section>
        </>
      )}
      {forking ? (
        <ForkDialog
          threadId={id}
          graph={graph}
          checkpoint={forking}
          onClose={() => setForking(undefined)}
          onForked={async (checkpointId) => {
            setForking(undefined);
            await reload();
            setSelected(checkpointId);
          }}
        />
      ) : null}
      {asking ? (
        <SecretDialog
          field={asking.field}
          context={asking.context}
          problem={asking.problem}
          onClose={() => setAsking(undefined)}
          onSend={(context) => {
            setAsking(undefined);
            runFrom(asking.from, { ...asking.given, ...context });
          }}
        />
      ) : null}
      {deleting ? (
        <DeleteDialog
          threadId={id}
          onClose={() => setDeleting(false)}
          onDeleted={() => navigate({ view: "threads" })}
        />
      ) : null}
    </section>
  );
}
