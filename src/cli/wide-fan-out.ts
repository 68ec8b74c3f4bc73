import { setMaxListeners } from "node:events";

/**
 * LangGraph combines a run's abort signals into one and adds an abort listener to it per running
 * task, removed when the task ends: a fan-out (`map`, parallel edges) of more than ten tasks is not
 * a leak, yet Node warned "MaxListenersExceededWarning" on stderr. The signal is LangGraph's own,
 * so the limit is lifted for the signals this process makes — the CLI's process only; a program
 * that imports the package keeps its own setting.
 */
export function allowWideFanOut(): void {
  setMaxListeners(0);
}
