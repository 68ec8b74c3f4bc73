/** Guards for spec data, which may have any shape until the schema rule has passed. */

/** A plain mapping (not null, not a list). */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The value as a mapping, or undefined when it is not one. */
export const asObject = (v: unknown): Record<string, unknown> | undefined =>
  isObject(v) ? v : undefined;
