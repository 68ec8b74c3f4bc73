import damerauLevenshtein from "damerau-levenshtein";

/** Edits between two words, an adjacent swap (`tpye` → `type`) counting as one. */
const distance = (a: string, b: string): number => damerauLevenshtein(a, b).steps;

/**
 * The candidate closest to `word`, if it is close enough to be a likely typo
 * (edit distance at most a third of the word's length, and at least 1 for short words).
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  const lower = word.toLowerCase();
  const allowed = Math.max(1, Math.floor(word.length / 3));
  for (const c of candidates) {
    if (c === word) continue;
    // Words whose lengths differ by more than `allowed` are at least that many edits apart: no
    // typo of each other, and not worth the distance (rules ask with every name of a graph).
    if (Math.abs(c.length - word.length) > allowed) continue;
    const d = c.toLowerCase() === lower ? 0.5 : distance(lower, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return bestDistance <= allowed ? best : undefined;
}

/** "did you mean `x`?" when a close candidate exists. */
export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  const c = closest(word, candidates);
  return c === undefined ? undefined : `did you mean \`${c}\`?`;
}

/** A did-you-mean hint with the name it suggests, in place of the misspelt word. */
export interface Suggestion {
  hint: string;
  replacement: string;
}

/** "did you mean `x`?" with `x`, for a finding whose range is `word`: an editor offers `x` as a fix. */
export function suggest(word: string, candidates: Iterable<string>): Suggestion | undefined {
  const c = closest(word, candidates);
  return c === undefined ? undefined : { hint: `did you mean \`${c}\`?`, replacement: c };
}

/** A did-you-mean's hint and replacement as fields, or the `otherwise` hint when no name is close. */
export const withSuggestion = (s: Suggestion | undefined, otherwise?: string) =>
  s ? { hint: s.hint, replacement: s.replacement } : { hint: otherwise };

/** Lists names for a message: "`a`, `b` or `c`". */
export function listNames(names: readonly string[], max = 8): string {
  const shown = names.slice(0, max).map((n) => `\`${n}\``);
  if (names.length > max) return `${shown.join(", ")}, …`;
  if (shown.length <= 1) return shown.join("");
  return `${shown.slice(0, -1).join(", ")} or ${shown.at(-1)}`;
}
