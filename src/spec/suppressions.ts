/**
 * Inline suppression comments (YAML only; JSON has no comments):
 *
 *   foo: bar  # graphspec-disable-line unknown-node, route-no-default
 *   # graphspec-disable-next-line route-no-default
 *   # graphspec-disable unreachable-node          (whole file)
 *
 * A directive without rule names suppresses every rule on that line.
 */
const DIRECTIVE = /#\s*graphspec-disable(-next-line|-line)?(?:\s+([a-z0-9,\s-]+?))?\s*$/;

export interface Suppressions {
  /** Whether a diagnostic of `rule` starting on 1-based `line` is suppressed. */
  covers(rule: string, line: number): boolean;
}

export function scanSuppressions(text: string): Suppressions {
  const byLine = new Map<number, Set<string> | "all">();
  let file: Set<string> | "all" | undefined;
  const add = (line: number, rules: Set<string> | "all") => {
    const prev = byLine.get(line);
    if (prev === "all" || rules === "all") byLine.set(line, "all");
    else byLine.set(line, new Set([...(prev ?? []), ...rules]));
  };
  if (text.includes("graphspec-disable")) {
    const lines = text.split(/\r?\n/);
    lines.forEach((content, i) => {
      const m = DIRECTIVE.exec(content);
      if (!m) return;
      const names = m[2]
        ?.split(/[\s,]+/)
        .map((s) => s.trim())
        .filter(Boolean);
      const rules: Set<string> | "all" = names?.length ? new Set(names) : "all";
      if (m[1] === "-line") add(i + 1, rules);
      else if (m[1] === "-next-line") add(i + 2, rules);
      else file = file === "all" || rules === "all" ? "all" : new Set([...(file ?? []), ...rules]);
    });
  }
  return {
    covers(rule, line) {
      if (file === "all" || file?.has(rule)) return true;
      const at = byLine.get(line);
      return at === "all" || (at?.has(rule) ?? false);
    },
  };
}
