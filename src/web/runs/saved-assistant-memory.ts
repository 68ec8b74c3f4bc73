/**
 * The saved assistant picked on a graph's run form, kept for the browser tab (sessionStorage) as
 * the stand-in and the run options are: a reload, a thread opened again or "Run from here" runs
 * with the same assistant as the run before it. "" is the graph's own.
 */
const storageKey = (graph: string) => `graphspec.assistant.${graph}`;

export const keptAssistant = (graph: string): string =>
  globalThis.sessionStorage?.getItem(storageKey(graph)) ?? "";

export function keepAssistant(graph: string, assistantId: string): void {
  if (assistantId) globalThis.sessionStorage?.setItem(storageKey(graph), assistantId);
  else globalThis.sessionStorage?.removeItem(storageKey(graph));
}
