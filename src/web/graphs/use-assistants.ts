/**
 * The server's graphs, as its assistants, polled so that a save shows within a second: the list
 * is asked for every 500 ms (one small request; a drawing is fetched again only when its
 * assistant's `version` or `updated_at` moves).
 */
import type { Assistant } from "@langchain/langgraph-sdk";
import { useEffect, useState } from "preact/hooks";
import { client } from "../api.js";
import { serverProblem } from "../runs/server-problem.js";

export const POLL_MS = 500;

export interface Assistants {
  list: Assistant[] | undefined;
  /** Why the last poll failed (the server is down, say); cleared by the next good one. */
  error: string | undefined;
  /** The server wants an API key (a 401): what it said. */
  unauthorized?: string;
  /** Polls now (a key was just given). */
  retry: () => void;
}

export function useAssistants(): Assistants {
  const [state, setState] = useState<Omit<Assistants, "retry">>({
    list: undefined,
    error: undefined,
  });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const list = await client.assistants.search({ limit: 1000 });
        if (!stopped) setState({ list, error: undefined });
      } catch (e) {
        const problem = serverProblem(e);
        if (!stopped && problem.status === 401) {
          // No use asking again until a key is given.
          setState({ list: undefined, error: undefined, unauthorized: problem.message });
          return;
        }
        if (!stopped) setState((s) => ({ ...s, error: (e as Error).message }));
      }
      if (!stopped) timer = setTimeout(poll, POLL_MS);
    };
    poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [attempt]); // a new attempt (a key was given) restarts the polling
  return { ...state, retry: () => setAttempt((n) => n + 1) };
}
