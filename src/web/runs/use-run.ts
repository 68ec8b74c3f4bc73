/**
 * One graph's run on the page: start it on a new thread, follow its stream, learn at its end
 * whether it paused (the thread's pending interrupts, or a static breakpoint), resume or continue
 * it, and open a thread named in the URL again — joining its run live when one is going. Everything
 * goes through the SDK `client`.
 */
import type { Command } from "@langchain/langgraph-sdk";
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { client } from "../api.js";
import type { JsonSchema } from "../forms/schema-fields.js";
import { hrefOf, parseRoute } from "../route.js";
import { conversationOf } from "./conversation.js";
import { RUNS_LISTED, reopenedProgress } from "./reopen-thread.js";
import { noRunOptions, type RunChoices, type RunOptions, runPayload } from "./run-options.js";
import {
  applyEvent,
  emptyProgress,
  errorDetailOf,
  finishedProgress,
  type NodeStatus,
  RUN_STREAM_MODES,
  type RunProgress,
  startedProgress,
} from "./run-progress.js";
import { type ServerProblem, serverProblem } from "./server-problem.js";

export interface PendingInterrupt {
  id: string;
  /** The node that asked. */
  node: string;
  value: unknown;
  /** The interrupt's `response_schema` (an `interrupt` node's `schema`), when it has one. */
  schema: JsonSchema | undefined;
}

export interface RunState {
  progress: RunProgress;
  thread: string | undefined;
  interrupts: PendingInterrupt[];
  /** Paused at a static breakpoint (`interrupts.before/after`, `interrupt_before`): the next nodes. */
  pausedBefore: string[];
  /**
   * The last run failed, and these nodes — the failed ones, still pending in the checkpoint — run
   * again on Retry (a run with no input goes on from the last checkpoint, as on LangGraph's server).
   */
  failedAt: string[];
  /** The server refused the request (a 422 naming a field): shown by the form that sent it. */
  problem: { from: "start" | "resume"; problem: ServerProblem } | undefined;
  /** Cancel failed (refused, or the server out of reach): shown until the next run or Cancel. */
  cancelProblem: ServerProblem | undefined;
  busy: boolean;
}

async function pendingInterrupts(thread: string): Promise<PendingInterrupt[]> {
  const state = await client.threads.getState(thread);
  return (state.tasks ?? []).flatMap((t) =>
    (t.interrupts ?? []).map((i) => {
      const schema = (i as { response_schema?: unknown }).response_schema;
      return {
        id: String(i.id),
        node: t.name,
        value: i.value,
        schema: schema && typeof schema === "object" ? (schema as JsonSchema) : undefined,
      };
    }),
  );
}

/**
 * Where a thread stands once no run is going: its interrupts, the nodes a breakpoint holds, or —
 * the last run failed — the nodes that failed, which a Retry runs again.
 */
async function pauseOf(thread: string, failed: boolean) {
  const state = await client.threads.getState(thread);
  const interrupts = await pendingInterrupts(thread);
  // `next` without interrupts is a breakpoint — unless the last run failed there.
  const next = interrupts.length ? [] : (state.next ?? []);
  return {
    state,
    interrupts,
    pausedBefore: failed ? [] : next,
    failedAt: failed ? next : [],
  };
}

const withNodes = (p: RunProgress, nodes: string[], status: NodeStatus): RunProgress => ({
  ...p,
  nodes: { ...p.nodes, ...Object.fromEntries(nodes.map((n) => [n, status])) },
});

type StreamChunk = { event: string; data: unknown };

/** What a run on the thread is sent besides the run options. */
type FollowUp = {
  input?: Record<string, unknown> | null;
  context?: Record<string, unknown>;
  command?: Command;
};

let saidCount = 0;
/** The person's chat message among the streamed answers (the stream carries only the graph's). */
const withSaid = (p: RunProgress, text: string): RunProgress => ({
  ...p,
  messages: [...p.messages, { id: `said-${++saidCount}`, node: "you", text }],
});

export function useRun(
  graph: string,
  assistantId: string,
  initialThread: string | undefined,
  /** What answers for the models in the runs it starts ("": the real provider; stand-in.ts). */
  standIn = "",
  /** The form's run options (run-options.ts), for every run it starts, resumes or follows up. */
  options: { options: RunOptions; choices: RunChoices } = {
    options: noRunOptions(),
    choices: { models: [], tools: [] },
  },
) {
  // Read when a run starts or resumes: a resume goes on with the choice the form shows then.
  const chosen = useRef(standIn);
  chosen.current = standIn;
  const runOptions = useRef(options);
  runOptions.current = options;
  const [state, setState] = useState<RunState>({
    progress: emptyProgress(),
    thread: initialThread,
    interrupts: [],
    pausedBefore: [],
    failedAt: [],
    problem: undefined,
    cancelProblem: undefined,
    busy: false,
  });
  const alive = useRef(true);
  /**
   * Leaving the view closes the streams of the runs it started or followed up, as it closes a
   * joined one (below): the runs go on at the server, and the tab does not hold a connection for
   * each — a browser has six to a server, and the page's own reads wait behind them.
   */
  const leaving = useMemo(() => new AbortController(), []);
  useEffect(
    () => () => {
      alive.current = false;
      leaving.abort();
    },
    [],
  );
  const set = (f: (s: RunState) => RunState) => {
    if (alive.current) setState(f);
  };

  /**
   * Puts the thread in the URL without a new history entry or a re-route: a reload shows it. Only
   * while the URL is still this view's: a run's first event can come after the person went
   * elsewhere and before the page handled the `hashchange` (a busy tab) — replacing the URL then
   * sent the page back here when it read the hash.
   */
  const remember = (thread: string) => {
    const here = parseRoute(location.hash);
    if (!alive.current || here.view !== "run" || here.graph !== graph) return;
    history.replaceState(null, "", hrefOf({ view: "run", graph, thread }));
  };

  /** Shows a run's events as they come (a run started here, or one joined), then how it ended. */
  const show = useCallback(
    async (
      thread: string,
      from: "start" | "resume",
      stream: AsyncIterable<StreamChunk>,
      /** Nodes known to be running already (a joined run's `next`), until its events say more. */
      running: string[] = [],
    ) => {
      set((s) => ({ ...s, busy: true, problem: undefined, cancelProblem: undefined }));
      let accepted = false;
      let failed = false;
      try {
        for await (const chunk of stream) {
          // A cancel ends the stream with an error too, but the run did not fail: it can go on
          // (Continue), not be tried again (Retry).
          if (
            chunk.event.split("|")[0] === "error" &&
            errorDetailOf(chunk.data).code !== "cancelled"
          )
            failed = true;
          if (!accepted) {
            accepted = true;
            remember(thread);
            set((s) => ({
              ...s,
              thread,
              interrupts: [],
              pausedBefore: [],
              failedAt: [],
              progress: withNodes(startedProgress(s.progress), running, "running"),
            }));
          }
          set((s) => ({ ...s, progress: applyEvent(s.progress, chunk.event, chunk.data) }));
        }
        const { state: ended, interrupts, pausedBefore, failedAt } = await pauseOf(thread, failed);
        set((s) => ({
          ...s,
          busy: false,
          interrupts,
          pausedBefore,
          failedAt,
          progress: finishedProgress(
            {
              ...withNodes(s.progress, pausedBefore, "interrupted"),
              // The whole conversation, as a reopened thread shows it (conversation.ts).
              messages: conversationOf(ended.values, s.progress.messages),
            },
            interrupts.length + pausedBefore.length > 0,
          ),
        }));
      } catch (e) {
        // The page left the run (joinStream's signal): nothing went wrong with it.
        if ((e as Error)?.name === "AbortError") return;
        const problem = serverProblem(e);
        if (!accepted) {
          // Refused before it ran (bad input): the form stays as typed, the error beside it.
          set((s) => ({ ...s, busy: false, problem: { from, problem } }));
        } else {
          set((s) => ({
            ...s,
            busy: false,
            progress: { ...s.progress, status: "error", error: problem.message },
          }));
        }
      }
    },
    [graph],
  );

  /** The last resume, Continue or Retry sent: sent again, with a context, by `again`. */
  const lastFollowUp = useRef<{ thread: string; payload: FollowUp } | undefined>(undefined);
  const follow = useCallback(
    (thread: string, from: "start" | "resume", payload: FollowUp) => {
      if (from === "resume") lastFollowUp.current = { thread, payload };
      return show(
        thread,
        from,
        client.runs.stream(thread, assistantId, {
          ...payload,
          ...runPayload(runOptions.current.options, runOptions.current.choices, chosen.current),
          streamMode: [...RUN_STREAM_MODES],
          streamSubgraphs: true,
          signal: leaving.signal,
        }),
      );
    },
    [assistantId, show],
  );

  const start = useCallback(
    async (
      input: Record<string, unknown>,
      context: Record<string, unknown>,
      /** Chat mode: the person's message, shown with the answers. */
      said?: string,
    ) => {
      set((s) => ({ ...s, busy: true, problem: undefined }));
      let thread: string;
      try {
        thread = (await client.threads.create()).thread_id;
      } catch (e) {
        set((s) => ({ ...s, busy: false, problem: { from: "start", problem: serverProblem(e) } }));
        return;
      }
      set((s) => ({
        ...s,
        progress: said === undefined ? emptyProgress() : withSaid(emptyProgress(), said),
        interrupts: [],
        pausedBefore: [],
        failedAt: [],
      }));
      await follow(thread, "start", { input, context });
    },
    [follow],
  );

  /**
   * Chat mode: the person's message as a follow-up run on the thread (its input the message, added
   * to `messages` by the channel's reducer) — or, with no thread yet, a new one with `input`.
   */
  const send = useCallback(
    async (text: string, input: Record<string, unknown>, context: Record<string, unknown>) => {
      const message = { role: "user", content: text };
      if (!state.thread) {
        const earlier = Array.isArray(input.messages) ? input.messages : [];
        await start({ ...input, messages: [...earlier, message] }, context, text);
        return;
      }
      set((s) => ({ ...s, progress: withSaid(s.progress, text) }));
      await follow(state.thread, "start", { input: { messages: [message] }, context });
    },
    [follow, start, state.thread],
  );

  /** Asks the server to stop the run going on (`runs.cancel`); its stream then ends `cancelled`. */
  const cancel = useCallback(async () => {
    const runId = state.progress.runId;
    if (!state.thread || !runId) return;
    set((s) => ({ ...s, cancelProblem: undefined }));
    try {
      await client.runs.cancel(state.thread, runId);
    } catch (e) {
      set((s) => ({ ...s, cancelProblem: serverProblem(e) }));
    }
  }, [state.thread, state.progress.runId]);

  const resume = useCallback(
    async (resumeValue: unknown) => {
      if (!state.thread) return;
      await follow(state.thread, "resume", { command: { resume: resumeValue } });
    },
    [follow, state.thread],
  );

  /**
   * Goes on from a static breakpoint, or (Retry) runs a failed step again: a run with no input
   * continues from the last checkpoint.
   */
  const continueRun = useCallback(async () => {
    if (!state.thread) return;
    await follow(state.thread, "resume", { input: null });
  }, [follow, state.thread]);

  /**
   * The last resume, Continue or Retry again, with `context` (a secret the thread does not keep,
   * asked for once the server refused without it).
   */
  const again = useCallback(
    async (context: Record<string, unknown>) => {
      const last = lastFollowUp.current;
      if (!last) return;
      await follow(last.thread, "resume", {
        ...last.payload,
        context: { ...last.payload.context, ...context },
      });
    },
    [follow],
  );

  // A thread named in the URL (a reload, a link, "Run from here"): join its run live if one is
  // pending or running — its events replay from the start — else show where it stands.
  useEffect(() => {
    if (!initialThread) return;
    let stopped = false;
    // Leaving the view (or the thread) closes the joined stream; the run itself goes on.
    const left = new AbortController();
    (async () => {
      try {
        const runs = await client.runs.list(initialThread, { limit: RUNS_LISTED });
        if (stopped) return;
        const going = runs.find((r) => r.status === "pending" || r.status === "running");
        if (going) {
          set((s) => ({
            ...s,
            progress: { ...emptyProgress(), status: "running", runId: going.run_id },
          }));
          // A run created without the page's stream modes replays only `values`: its `next`
          // nodes at least show as running.
          const now = await client.threads.getState(initialThread);
          if (stopped) return;
          const stream = client.runs.joinStream(initialThread, going.run_id, {
            streamMode: [...RUN_STREAM_MODES],
            signal: left.signal,
          });
          await show(initialThread, "resume", stream, now.next ?? []);
          return;
        }
        // The thread's status, not its last run record's: a thread whose records are gone (a
        // restarted server, `graphspec run --thread`) still says it failed.
        const failed = (await client.threads.get(initialThread)).status === "error";
        if (stopped) return;
        const {
          state: threadState,
          interrupts,
          pausedBefore,
          failedAt,
        } = await pauseOf(initialThread, failed);
        if (stopped) return;
        // What its runs showed and where it stands, failure included (reopen-thread.ts).
        const progress = await reopenedProgress(
          initialThread,
          threadState,
          interrupts.length ? interrupts.map((i) => i.node) : pausedBefore,
          runs,
          left.signal,
        );
        if (stopped) return;
        set((s) => ({ ...s, interrupts, pausedBefore, failedAt, progress }));
      } catch (e) {
        if (!stopped)
          set((s) => ({
            ...s,
            progress: {
              ...s.progress,
              status: "error",
              error: `thread ${initialThread}: ${serverProblem(e).message}`,
            },
          }));
      }
    })();
    return () => {
      stopped = true;
      left.abort();
    };
  }, [initialThread]);

  return { ...state, start, resume, continueRun, again, send, cancel };
}
