/**
 * TypeScript names for graphs: any graph name (dashes, dots, unicode, a leading digit) becomes
 * identifiers that compile, and two graphs never get a name in common, so an index module can
 * re-export them all.
 */

/** The words of a name: runs of characters an identifier may hold, `_` separating (snake_case). */
const words = (name: string): string[] => name.split(/(?:[^\p{ID_Continue}]|_)+/u).filter(Boolean);

const capitalize = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

/** `support-triage` → `SupportTriage`; a name with no usable character → `Graph`. */
export function pascalCase(name: string): string {
  const joined = words(name).map(capitalize).join("");
  // An identifier starts with a letter (ID_Start), `_` or `$`: a leading digit gets a prefix.
  if (!joined) return "Graph";
  return /^\p{ID_Start}/u.test(joined) ? joined : `Graph${joined}`;
}

/** `support-triage` → `supportTriage`. */
export function camelCase(name: string): string {
  const pascal = pascalCase(name);
  return pascal.charAt(0).toLowerCase() + pascal.slice(1);
}

/**
 * Picks, in order, a base for each name such that no `base + suffix` of one equals any of another:
 * `a-b` and `a_b` become `AB` and `AB2`; `x` (→ `XState`) and `x-state` (→ `XState`) too.
 */
export function uniqueBases(
  names: readonly string[],
  toBase: (name: string) => string,
  suffixes: readonly string[],
): string[] {
  const used = new Set<string>();
  return names.map((name) => {
    const base = toBase(name);
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? base : `${base}${n}`;
      const all = suffixes.map((s) => candidate + s);
      if (all.some((id) => used.has(id))) continue;
      for (const id of all) used.add(id);
      return candidate;
    }
  });
}

/**
 * A file name for each graph (without extension): its name with characters a file name should
 * not hold replaced by `-`, unique without regard to case (macOS and Windows file systems), never
 * `index` (the index module's).
 */
export function fileStems(names: readonly string[]): string[] {
  const used = new Set<string>(["index"]);
  return names.map((name) => {
    const stem =
      name
        .replace(/[^\p{L}\p{N}_.-]+/gu, "-")
        .replace(/^[.-]+/, "")
        .slice(0, 100) || "graph";
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? stem : `${stem}-${n}`;
      if (used.has(candidate.toLowerCase())) continue;
      used.add(candidate.toLowerCase());
      return candidate;
    }
  });
}
