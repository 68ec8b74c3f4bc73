/** What one simulated API contributes: its route, its answers and its errors, as data the server writes. */
import type { SimTurn, SimUsage } from "./script.js";

/** An answer: a JSON body, or the server-sent events of a streamed one (each `event:`/`data:` text). */
export type SimAnswer = { json: unknown } | { events: string[] };

export interface SimApi {
  name: "openai" | "anthropic";
  /** The request path it answers (`POST`). */
  path: string;
  /** The answer to a request, and the usage it reports (what a client should count once). */
  answer(
    turn: SimTurn,
    body: Record<string, unknown>,
    call: number,
  ): { answer: SimAnswer; usage: SimUsage };
  /** The provider's error body for an HTTP status. */
  error(status: number, message: string, type: string | undefined): unknown;
  /** The event a stream ends with when the provider fails in the middle of it (status 200 sent). */
  streamError(message: string, type: string | undefined): string;
  /** Headers every answer carries (a request id, in the provider's name for it). */
  headers(call: number): Record<string, string>;
}

/** One server-sent event as the provider writes it. */
export const sse = (data: unknown, event?: string): string =>
  `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
