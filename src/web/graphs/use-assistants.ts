/**
 * The server's graphs, as its assistants, polled so that a save shows within a second: the list
 * is asked for every 500 ms (one small request; a drawing is fetched again only when its
 * assistant's `version` or `updated_at` moves).
 */
import type { Assistant } from "@langchain/langgraph-sdk";
import { useEffect, useState } from "preact/hooks";
import { client } from "../api.js";

export const POLL_MS = 500;

export interface Assistants {
  list: Assistant[] | undefined;
  /** Why the last poll failed (the server is down, say); cleared by the next good one. */
  error: string | undefined;
}

export function useAssistants(): Assistants {
  const [state, setState] = useState<Assistants>({ list: undefined, error: undefined });
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const list = await client.assistants.search({ limit: 1000 });
        if (!stopped) setState({ list, error: undefined });
      } catch (e) {
        if (!stopped) setState((s) => ({ ...s, error: (e as Error).message }));
      }
      if (!stopped) timer = setTimeout(poll, POLL_MS);
    };
    poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);
  return state;
}
