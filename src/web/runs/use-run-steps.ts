/**
 * A run's thread's checkpoints, for its steps and its output: read when the thread or the run's
 * status changes, and again each time the server says the thread changed (a node finished:
 * page-events.ts) — so the steps fill in as the run goes, with no timer.
 */
import type { ThreadState } from "@langchain/langgraph-sdk";
import { useEffect, useState } from "preact/hooks";
import { client } from "../api.js";
import { latestOnly } from "../latest-only.js";
import { onPageEvent } from "../page-events.js";
import { serverProblem } from "./server-problem.js";

/**
 * The newest checkpoints read, as the thread's page reads a page of them: each read carries every
 * checkpoint's whole state, so a long thread's older steps are left to that page.
 */
const STEPS_READ = 50;

export function useRunSteps(thread: string | undefined, status: string | undefined) {
  const [history, setHistory] = useState<ThreadState[]>([]);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    if (!thread) {
      setHistory([]);
      return;
    }
    let stopped = false;
    const read = latestOnly(async () => {
      try {
        const h = await client.threads.getHistory(thread, { limit: STEPS_READ });
        if (stopped) return;
        setHistory(h);
        setError(undefined);
      } catch (e) {
        if (!stopped) setError(serverProblem(e).message);
      }
    });
    read();
    const off = onPageEvent((e) => {
      if ((e.type === "thread" && e.threadId === thread) || e.type === "resync") read();
    });
    return () => {
      stopped = true;
      off();
    };
  }, [thread, status]);
  /** Whether older checkpoints may be left out. */
  const more = history.length >= STEPS_READ;
  return { history, error, more };
}
