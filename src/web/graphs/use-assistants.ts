/**
 * The server's graphs, as its assistants: read once, then again each time the server says the
 * graphs changed (a save reloaded or refused: page-events.ts) or that events may have been missed
 * — never on a timer. A drawing is fetched again only when its assistant's `version` or
 * `updated_at` moves.
 */
import type { Assistant } from "@langchain/langgraph-sdk";
import { useEffect, useState } from "preact/hooks";
import { client } from "../api.js";
import { latestOnly } from "../latest-only.js";
import { onPageEvent, onStreamStatus } from "../page-events.js";
import { serverProblem } from "../runs/server-problem.js";

export interface Assistants {
  list: Assistant[] | undefined;
  /** Why the last read failed, or the stream of events is down (the server is down, say). */
  error: string | undefined;
  /** The server wants an API key (a 401): what it said. */
  unauthorized?: string;
  /** Reads now (a key was just given). */
  retry: () => void;
}

export function useAssistants(): Assistants {
  const [state, setState] = useState<Omit<Assistants, "retry" | "error">>({ list: undefined });
  const [readError, setReadError] = useState<string | undefined>(undefined);
  const [streamError, setStreamError] = useState<string | undefined>(undefined);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let stopped = false;
    const read = latestOnly(async () => {
      try {
        // The graphs' own assistants: saved ones are picked on a graph's run form.
        const list = await client.assistants.search({
          limit: 1000,
          metadata: { created_by: "system" },
        });
        if (stopped) return;
        setState({ list });
        setReadError(undefined);
      } catch (e) {
        if (stopped) return;
        const problem = serverProblem(e);
        // No use asking again until a key is given.
        if (problem.status === 401) setState({ list: undefined, unauthorized: problem.message });
        else setReadError((e as Error).message);
      }
    });
    read();
    const off = onPageEvent((e) => {
      if (e.type === "graphs" || e.type === "resync") read();
    });
    const offStatus = onStreamStatus((s) => setStreamError(s.problem));
    return () => {
      stopped = true;
      off();
      offStatus();
    };
  }, [attempt]); // a new attempt (a key was given) reads again
  return {
    ...state,
    error: readError ?? streamError,
    retry: () => setAttempt((n) => n + 1),
  };
}
