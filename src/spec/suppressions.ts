import { Parser } from "yaml";

/**
 * Inline suppression comments (YAML only; JSON has no comments):
 *
 *   foo: bar  # graphspec-disable-line unknown-node, route-no-default
 *   # graphspec-disable-next-line route-no-default -- the fallback is intended
 *   # graphspec-disable unreachable-node          (whole file)
 *
 * A directive without rule names suppresses every rule on that line (or in the file).
 * Text after ` -- ` is a free-form reason. Only real comments count: `#` inside a quoted
 * string or a block scalar is text, so the YAML parser's own tokens are used to find them.
 */
const DIRECTIVE = /^#\s*graphspec-disable(-next-line|-line)?(?=\s|$)(.*)$/;

export interface Suppressions {
  /** Whether a diagnostic of `rule` starting on 1-based `line` is suppressed. */
  covers(rule: string, line: number): boolean;
}

type RuleSet = Set<string> | "all";

/** Reads the directives lazily: most documents have none, and most of the rest are never asked. */
export function scanSuppressions(text: string, lineOf: (offset: number) => number): Suppressions {
  let scanned: { file: RuleSet | undefined; byLine: Map<number, RuleSet> } | undefined;
  return {
    covers(rule, line) {
      scanned ??= text.includes("graphspec-disable")
        ? collect(text, lineOf)
        : { file: undefined, byLine: new Map() };
      if (includes(scanned.file, rule)) return true;
      return includes(scanned.byLine.get(line), rule);
    },
  };
}

const includes = (set: RuleSet | undefined, rule: string) =>
  set === "all" || (set?.has(rule) ?? false);

const union = (a: RuleSet | undefined, b: RuleSet): RuleSet =>
  a === "all" || b === "all" ? "all" : new Set([...(a ?? []), ...b]);

function collect(text: string, lineOf: (offset: number) => number) {
  let file: RuleSet | undefined;
  const byLine = new Map<number, RuleSet>();
  for (const { offset, source } of comments(text)) {
    const m = DIRECTIVE.exec(source);
    if (!m) continue;
    const names = (m[2] ?? "")
      .split(/\s--(?:\s|$)/)[0]!
      .split(/[\s,]+/)
      .filter(Boolean);
    const rules: RuleSet = names.length ? new Set(names) : "all";
    if (m[1] === undefined) {
      file = union(file, rules);
      continue;
    }
    const line = lineOf(offset) + (m[1] === "-next-line" ? 1 : 0);
    byLine.set(line, union(byLine.get(line), rules));
  }
  return { file, byLine };
}

/** Every comment token in the text, from the YAML parser's concrete syntax tree. */
function comments(text: string): { offset: number; source: string }[] {
  const out: { offset: number; source: string }[] = [];
  // The tree nests as deep as the document; walk it with a stack, not recursion.
  const stack: unknown[] = [...new Parser().parse(text)];
  while (stack.length) {
    const item = stack.pop();
    if (Array.isArray(item)) {
      for (const child of item) stack.push(child);
      continue;
    }
    if (item === null || typeof item !== "object") continue;
    const token = item as { type?: unknown; offset?: unknown; source?: unknown };
    if (token.type === "comment" && typeof token.offset === "number") {
      out.push({ offset: token.offset, source: String(token.source) });
      continue;
    }
    for (const value of Object.values(item))
      if (value && typeof value === "object") stack.push(value);
  }
  return out;
}
