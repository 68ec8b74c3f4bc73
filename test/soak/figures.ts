/** The soak's figures: latency percentiles, memory in MiB, counts, as a note to paste. */

/** The p-th percentile (0–100) of `samples`, nearest rank. */
export function percentile(samples: number[], p: number): number {
  if (!samples.length) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export const ms = (n: number) => `${n.toFixed(1)} ms`;
export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/** `label: n` lines of a count map, most frequent first. */
export function counts(m: Map<string, number>, indent = "  "): string {
  return [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${indent}${k}: ${n}`)
    .join("\n");
}

export function tally(m: Map<string, number>, key: string, n = 1): void {
  m.set(key, (m.get(key) ?? 0) + n);
}
