/**
 * The one client the page talks to its server with: the official `@langchain/langgraph-sdk`
 * `Client`, pointed at the page's own origin. The page uses nothing else to reach the server, so
 * everything it shows is also a proof that the SDK works against graphspec's API.
 */
import { Client } from "@langchain/langgraph-sdk";

export const client = new Client({
  apiUrl: globalThis.location?.origin ?? "http://127.0.0.1:2024",
  // The page polls and streams on its own schedule: a failed call is shown, not retried behind its back.
  callerOptions: { maxRetries: 0 },
});
