/** Edge labels longer than this are cut: the drawing stays readable, the full text is the edge's title. */
const LABEL_MAX_CHARS = 40;

/**
 * The shown label of a label: long CEL conditions are cut (the full text is the edge's title), by
 * code points so an emoji is never split into half a surrogate pair. Apart from the layout (dagre)
 * so that Mermaid output needs no layout package.
 */
export const shortLabel = (text: string, max = LABEL_MAX_CHARS) => {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : text;
};

/** How many code points two texts share at their start. */
function sharedStart(a: string[], b: string[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * The shown label of each of `texts`, no two different texts shown alike: a text cut by
 * `shortLabel` to the same label as another (two route conditions that differ past the cut, say)
 * keeps its start and then, after an ellipsis, the part where it parts from the others — so a
 * person can tell the edges apart without hovering for the title. Labels stay within `max`.
 */
export function distinctShortLabels(
  texts: Iterable<string>,
  max = LABEL_MAX_CHARS,
): Map<string, string> {
  const unique = [...new Set(texts)];
  const shown = new Map(unique.map((t) => [t, shortLabel(t, max)]));
  const alike = new Map<string, string[]>();
  for (const t of unique) alike.set(shown.get(t)!, [...(alike.get(shown.get(t)!) ?? []), t]);
  // The start kept before the ellipsis: a third of the label, enough to say what is compared.
  const head = Math.max(1, Math.floor(max / 3));
  for (const group of alike.values()) {
    if (group.length < 2) continue;
    const split = group.map((t) => Array.from(t));
    const room = max - head - 2; // two ellipses
    // Where a window showing the difference at `at` begins: a little before it, at the start of
    // a word (a name, a number) if one begins shortly before.
    const windowStart = (chars: string[], at: number) => {
      for (let j = at - 7; j >= Math.max(head, at - 16); j--)
        if (!/[\p{L}\p{N}_]/u.test(chars[j]!)) return j + 1;
      return Math.max(head, at - 6);
    };
    group.forEach((t, i) => {
      const chars = split[i]!;
      // Where it parts from each of the others: the window shows them all if it can, else where
      // it parts from the nearest of them (which tells it from the rest too).
      const parts = split.filter((_, j) => j !== i).map((u) => sharedStart(chars, u));
      const first = windowStart(chars, Math.min(...parts));
      const last = Math.max(...parts);
      const start = last < first + room ? first : windowStart(chars, last);
      const end = Math.min(chars.length, start + room + (start + room + 1 >= chars.length ? 1 : 0));
      shown.set(
        t,
        `${chars.slice(0, head).join("")}…${chars.slice(start, end).join("")}${end < chars.length ? "…" : ""}`,
      );
    });
  }
  // What could still coincide (texts that differ only in a part no window shows) is numbered.
  const seen = new Map<string, number>();
  for (const t of unique) {
    const label = shown.get(t)!;
    const n = (seen.get(label) ?? 0) + 1;
    seen.set(label, n);
    if (n > 1) shown.set(t, `${shortLabel(label, max - 3 - String(n).length)} (${n})`);
  }
  return shown;
}
