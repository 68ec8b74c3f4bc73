/** A JSON object as the server sends one: what the page reads fields of. */
export type JsonObject = Record<string, unknown>;

/** Whether a value read from the server is a JSON object (not null, not a list). */
export const isJsonObject = (v: unknown): v is JsonObject =>
  typeof v === "object" && v !== null && !Array.isArray(v);
