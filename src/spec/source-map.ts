import { isAlias, isMap, isPair, isScalar, isSeq, type Node } from "yaml";

/** A character range in the source text: [start, end) offsets. */
export type Span = readonly [start: number, end: number];

export interface Location {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** A path into the spec data, e.g. ["nodes", "classify", "kind"]. */
export type Path = readonly (string | number)[];

interface Entry {
  key?: Span;
  value?: Span;
}

export const escapeSegment = (segment: string): string =>
  segment.includes("~") || segment.includes("/")
    ? segment.replaceAll("~", "~0").replaceAll("/", "~1")
    : segment;

/** The JSON pointer of a path: `["nodes", "a/b"]` → `/nodes/a~1b`. */
export const pointerOf = (path: Path): string => {
  let out = "";
  for (const p of path) out += `/${escapeSegment(String(p))}`;
  return out;
};

/** A JSON pointer (as Ajv reports them) as a path; segments inside arrays of `data` become numbers. */
export function pathOfPointer(pointer: string, data: unknown): (string | number)[] {
  if (!pointer) return [];
  let value: unknown = data;
  return pointer
    .slice(1)
    .split("/")
    .map((raw) => {
      const seg = raw.replaceAll("~1", "/").replaceAll("~0", "~");
      const out = Array.isArray(value) ? Number(seg) : seg;
      value = (value as Record<string, unknown> | undefined)?.[seg];
      return out;
    });
}

/**
 * Maps every path in the spec data to where its key and value stand in the file.
 * A path that has no entry (a missing property, a place inside an alias) resolves to
 * its nearest ancestor that has one, so every diagnostic gets a position.
 */
export class SourceMap {
  private readonly entries = new Map<string, Entry>();
  /** Offsets where lines start; built on first use, so a file that fails early still gets positions. */
  private lineStarts: number[] | undefined;
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  /** A parsed tree `index` was given and no position was asked of yet. */
  private pending: Node | null = null;

  /**
   * Records every key and value under `root` (a yaml Document's contents) — when a position is
   * first asked for: most valid specs of a run never are, and the map holds a key per node.
   * Until then the tree is kept.
   */
  index(root: Node | null): this {
    this.indexPending();
    this.pending = root;
    return this;
  }

  private indexPending(): void {
    const root = this.pending;
    if (!root) return;
    this.pending = null;
    // An explicit stack: documents can nest deeper than is safe to recurse.
    const stack: [Node, string][] = root ? [[root, ""]] : [];
    while (stack.length) {
      const [node, ptr] = stack.pop()!;
      const entry = this.entry(ptr);
      if (node.range) entry.value = [node.range[0], node.range[1]];
      if (isAlias(node)) continue;
      // Children go on the stack last-first, so they are visited in document order and a
      // repeated key's later value wins, as it does in the data.
      if (isMap(node)) {
        const children: [Node, string][] = [];
        for (const pair of node.items) {
          if (!isPair(pair) || !isScalar(pair.key)) continue;
          const childPtr = `${ptr}/${escapeSegment(String(pair.key.value))}`;
          const child = this.entry(childPtr);
          if (pair.key.range) child.key = [pair.key.range[0], pair.key.range[1]];
          if (pair.value) children.push([pair.value as Node, childPtr]);
          else if (child.key) child.value = child.key;
        }
        for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
      } else if (isSeq(node)) {
        for (let i = node.items.length - 1; i >= 0; i--) {
          const item = node.items[i];
          if (item) stack.push([item as Node, `${ptr}/${i}`]);
        }
      }
    }
  }

  private entry(ptr: string): Entry {
    let entry = this.entries.get(ptr);
    if (!entry) {
      entry = {};
      this.entries.set(ptr, entry);
    }
    return entry;
  }

  /**
   * This map over this text followed by a newline and `other`'s text, with `other`'s entries
   * under `pointers` (and below them) added, shifted past this text: a spec with the entries it
   * takes from its catalog. Spans at or past `this.text.length + 1` are in `other`.
   */
  withGraft(other: SourceMap, pointers: readonly string[]): SourceMap {
    this.indexPending();
    other.indexPending();
    const shift = this.text.length + 1;
    const out = new SourceMap(`${this.text}\n${other.text}`);
    for (const [ptr, entry] of this.entries) out.entries.set(ptr, { ...entry });
    const moved = (s: Span | undefined): Span | undefined => s && [s[0] + shift, s[1] + shift];
    for (const [ptr, entry] of other.entries) {
      if (!pointers.some((p) => ptr === p || ptr.startsWith(`${p}/`))) continue;
      const key = moved(entry.key);
      const value = moved(entry.value);
      out.entries.set(ptr, { ...(key ? { key } : {}), ...(value ? { value } : {}) });
    }
    return out;
  }

  /** The span of a path's key (`at: "key"`) or value, falling back to the nearest ancestor. */
  span(path: Path, at: "key" | "value" = "value"): Span {
    this.indexPending();
    for (let n = path.length; n >= 0; n--) {
      const entry = this.entries.get(pointerOf(path.slice(0, n)));
      if (!entry) continue;
      // A missing child is reported at its parent's key: "nodes.x is missing `kind`" points at `x:`.
      const exact = n === path.length;
      const span = exact
        ? at === "key"
          ? (entry.key ?? entry.value)
          : entry.value
        : (entry.key ?? entry.value);
      if (span) return span;
    }
    return [0, 0];
  }

  /** Whether the path itself (not an ancestor) is in the file. */
  has(path: Path): boolean {
    this.indexPending();
    return this.entries.has(pointerOf(path));
  }

  locate(span: Span): Location {
    const start = this.position(span[0]);
    const end = this.position(Math.max(span[1], span[0]));
    return { line: start.line, column: start.column, endLine: end.line, endColumn: end.column };
  }

  /** 1-based line and column (in UTF-16 code units, as editors and SARIF count) of an offset. */
  position(offset: number): { line: number; column: number } {
    const at = Math.min(Math.max(offset, 0), this.text.length);
    const starts = this.lines();
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: at - starts[lo]! + 1 };
  }

  private lines(): number[] {
    if (!this.lineStarts) {
      const starts = [0];
      for (let i = this.text.indexOf("\n"); i >= 0; i = this.text.indexOf("\n", i + 1))
        starts.push(i + 1);
      this.lineStarts = starts;
    }
    return this.lineStarts;
  }

  /** The span of `needle` inside the value at `path`, when it stands there verbatim. */
  spanWithin(path: Path, needle: string, from = 0): Span | undefined {
    const outer = this.span(path, "value");
    const raw = this.text.slice(outer[0], outer[1]);
    const i = raw.indexOf(needle, from);
    return i < 0 ? undefined : [outer[0] + i, outer[0] + i + needle.length];
  }
}
