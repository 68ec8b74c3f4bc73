/**
 * The one client the page talks to its server with: the official `@langchain/langgraph-sdk`
 * `Client`, pointed at the page's own origin. The page uses nothing else to reach the server, so
 * everything it shows is also a proof that the SDK works against graphspec's API.
 *
 * A server started with `--api-keys` (or `--auth`) wants a key: the page asks for it once (see
 * api-key-form.tsx) and keeps it for the tab's session only (sessionStorage), sent as the SDK sends
 * it, in `x-api-key`.
 */
import { Client } from "@langchain/langgraph-sdk";

const STORED_KEY = "graphspec.apiKey";

const storage = (): Storage | undefined => globalThis.sessionStorage;

const clientWith = (apiKey: string | undefined) =>
  new Client({
    apiUrl: globalThis.location?.origin ?? "http://127.0.0.1:2024",
    // null: no key, and no looking for one in an environment the browser does not have.
    apiKey: apiKey ?? null,
    // The page reads again when told to (page-events.ts): a failed call is shown, not retried behind its back.
    callerOptions: { maxRetries: 0 },
  });

let apiKey = storage()?.getItem(STORED_KEY) ?? undefined;
const keyListeners = new Set<() => void>();

/** The SDK client; replaced (modules importing it see the new one) when a key is given. */
export let client = clientWith(apiKey);

/** The key the page sends, if any: the stream of events (page-events.ts) sends it too. */
export const currentApiKey = (): string | undefined => apiKey;

/** Told when a key is given (the stream of events opens again with it). */
export function onApiKey(listener: () => void): () => void {
  keyListeners.add(listener);
  return () => keyListeners.delete(listener);
}

/** Uses `key` for every request from now on, and for this tab's later loads. */
export function setApiKey(key: string): void {
  storage()?.setItem(STORED_KEY, key);
  apiKey = key;
  client = clientWith(key);
  for (const listener of keyListeners) listener();
}
