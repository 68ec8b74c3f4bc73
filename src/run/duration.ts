/** Durations as people write them in options and run bodies: `500ms`, `30s`, `5m`, `2h`. */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds, or undefined when `text` is not a duration (a bare number is not one). */
export function durationMs(text: string): number | undefined {
  const duration = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(text.trim());
  return duration ? Number(duration[1]) * UNIT_MS[duration[2]!]! : undefined;
}
