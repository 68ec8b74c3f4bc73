/**
 * One graph's run on the page: start it on a new thread, follow its stream, learn at its end
 * whether it paused (the thread's pending interrupts), resume it, and open a thread named in the
 * URL again. Everything goes through the SDK `client`.
 */
import type { Command } from "@langchain/langgraph-sdk";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { client } from "../api.js";
import type { JsonSchema } from "../forms/schema-fields.js";
import { hrefOf } from "../route.js";
import {
  applyEvent,
  emptyProgress,
  finishedProgress,
  progressFromState,
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
  /** The server refused the request (a 422 naming a field): shown by the form that sent it. */
  problem: { from: "start" | "resume"; problem: ServerProblem } | undefined;
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

export function useRun(graph: string, assistantId: string, initialThread: string | undefined) {
  const [state, setState] = useState<RunState>({
    progress: emptyProgress(),
    thread: initialThread,
    interrupts: [],
    problem: undefined,
    busy: false,
  });
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
    },
    [],
  );
  const set = (f: (s: RunState) => RunState) => {
    if (alive.current) setState(f);
  };

  /** Puts the thread in the URL without a new history entry or a re-route: a reload shows it. */
  const remember = (thread: string) =>
    history.replaceState(null, "", hrefOf({ view: "run", graph, thread }));

  const follow = useCallback(
    async (
      thread: string,
      from: "start" | "resume",
      payload: {
        input?: Record<string, unknown>;
        context?: Record<string, unknown>;
        command?: Command;
      },
    ) => {
      set((s) => ({ ...s, busy: true, problem: undefined }));
      let accepted = false;
      try {
        const stream = client.runs.stream(thread, assistantId, {
          ...payload,
          streamMode: [...RUN_STREAM_MODES],
          streamSubgraphs: true,
        });
        for await (const chunk of stream) {
          if (!accepted) {
            accepted = true;
            remember(thread);
            set((s) => ({
              ...s,
              thread,
              interrupts: [],
              progress: startedProgress(s.progress),
            }));
          }
          set((s) => ({ ...s, progress: applyEvent(s.progress, chunk.event, chunk.data) }));
        }
        const interrupts = await pendingInterrupts(thread);
        set((s) => ({
          ...s,
          busy: false,
          interrupts,
          progress: finishedProgress(s.progress, interrupts.length > 0),
        }));
      } catch (e) {
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
    [assistantId, graph],
  );

  const start = useCallback(
    async (input: Record<string, unknown>, context: Record<string, unknown>) => {
      set((s) => ({ ...s, busy: true, problem: undefined }));
      let thread: string;
      try {
        thread = (await client.threads.create()).thread_id;
      } catch (e) {
        set((s) => ({ ...s, busy: false, problem: { from: "start", problem: serverProblem(e) } }));
        return;
      }
      set((s) => ({ ...s, progress: emptyProgress(), interrupts: [] }));
      await follow(thread, "start", { input, context });
    },
    [follow],
  );

  const resume = useCallback(
    async (resumeValue: unknown) => {
      if (!state.thread) return;
      await follow(state.thread, "resume", { command: { resume: resumeValue } });
    },
    [follow, state.thread],
  );

  // A thread named in the URL (a reload, a link): show where it stands and what it waits for.
  useEffect(() => {
    if (!initialThread) return;
    let stopped = false;
    (async () => {
      try {
        const [threadState, interrupts] = await Promise.all([
          client.threads.getState(initialThread),
          pendingInterrupts(initialThread),
        ]);
        if (stopped) return;
        const progress = progressFromState(
          threadState.values,
          interrupts.map((i) => i.node),
          threadState.next ?? [],
        );
        set((s) => ({ ...s, interrupts, progress }));
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
    };
  }, [initialThread]);

  return { ...state, start, resume };
}
