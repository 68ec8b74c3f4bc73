import { isAlias, isMap, isPair, isScalar, isSeq, type LineCounter, type Node } from "yaml";

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

export const pointerOf = (path: Path): string =>
  path.map((p) => `/${String(p).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");

/**
 * Maps every path in the spec data to where its key and value stand in the file.
 * A path that has no entry (a missing property, a place inside an alias) resolves to
 * its nearest ancestor that has one, so every diagnostic gets a position.
 */
export class SourceMap {
  private readonly entries = new Map<string, Entry>();
  private readonly lines: LineCounter;
  readonly text: string;

  constructor(text: string, lines: LineCounter) {
    this.text = text;
    this.lines = lines;
  }

  /** Records every key and value under `root` (a yaml Document's contents). */
  index(root: Node | null): this {
    if (root) this.walk(root, []);
    return this;
  }

  private walk(node: Node, path: (string | number)[]): void {
    const ptr = pointerOf(path);
    const entry = this.entries.get(ptr) ?? {};
    if (node.range) entry.value = [node.range[0], node.range[1]];
    this.entries.set(ptr, entry);
    if (isAlias(node)) return;
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
        if (key === undefined) continue;
        const childPath = [...path, key];
        const childPtr = pointerOf(childPath);
        const child: Entry = this.entries.get(childPtr) ?? {};
        if (isScalar(pair.key) && pair.key.range)
          child.key = [pair.key.range[0], pair.key.range[1]];
        this.entries.set(childPtr, child);
        if (pair.value) this.walk(pair.value as Node, childPath);
        else if (child.key) child.value = child.key;
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        if (item) this.walk(item as Node, [...path, i]);
      });
    }
  }

  /** The span of a path's key (`at: "key"`) or value, falling back to the nearest ancestor. */
  span(path: Path, at: "key" | "value" = "value"): Span {
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
    return this.entries.has(pointerOf(path));
  }

  locate(span: Span): Location {
    const start = this.position(span[0]);
    const end = this.position(Math.max(span[1], span[0]));
    return { line: start.line, column: start.column, endLine: end.line, endColumn: end.column };
  }

  position(offset: number): { line: number; column: number } {
    const pos = this.lines.linePos(Math.min(Math.max(offset, 0), this.text.length));
    return { line: pos.line, column: pos.col };
  }

  /** The span of `needle` inside the value at `path`, when it stands there verbatim. */
  spanWithin(path: Path, needle: string, from = 0): Span | undefined {
    const outer = this.span(path, "value");
    const raw = this.text.slice(outer[0], outer[1]);
    const i = raw.indexOf(needle, from);
    return i < 0 ? undefined : [outer[0] + i, outer[0] + i + needle.length];
  }
}
