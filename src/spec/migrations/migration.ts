/**
 * One step of `graphspec migrate`: it rewrites a spec of version `from` into version `to` by editing
 * the parsed document in place. Edits go through `SpecEdit`, which changes the yaml Document's node
 * and the source token it came from together, so the file is written back from its own tokens:
 * every comment, blank line, quote and indentation the step does not touch is kept byte for byte,
 * and a JSON spec stays JSON.
 */
import { CST, type Document, isMap, isScalar, type Pair, type Scalar, type YAMLMap } from "yaml";

export interface Migration {
  from: number;
  to: number;
  /** What the step changes, in a few words, for the command's report. */
  summary: string;
  apply(edit: SpecEdit): void;
}

/** A spec the step cannot migrate as it stands: where and why. */
export class MigrationError extends Error {
  constructor(
    message: string,
    /** Offset in the file of what is wrong, when there is a place to name. */
    readonly offset?: number,
  ) {
    super(message);
    this.name = "MigrationError";
  }
}

/** The edits a step may make, each kept in the Document and in the file's tokens alike. */
export class SpecEdit {
  constructor(readonly doc: Document.Parsed) {}

  /** The top-level mapping. */
  get root(): YAMLMap<unknown, unknown> {
    if (!isMap(this.doc.contents)) throw new MigrationError("a spec is a mapping");
    return this.doc.contents;
  }

  /** The pair of `map` whose key is the scalar `key`, if any. */
  pair(map: YAMLMap<unknown, unknown>, key: string): Pair<unknown, unknown> | undefined {
    return map.items.find((p) => isScalar(p.key) && p.key.value === key);
  }

  /** The mappings among `map`'s values (nodes, state fields, …), by key. */
  mapsIn(map: unknown): [string, YAMLMap<unknown, unknown>][] {
    if (!isMap(map)) return [];
    return map.items.flatMap((p) =>
      isScalar(p.key) && isMap(p.value) ? [[String(p.key.value), p.value]] : [],
    ) as [string, YAMLMap<unknown, unknown>][];
  }

  /** Renames the key `from` of `map` to `to` where it stands; refuses when both are there. */
  renameKey(map: YAMLMap<unknown, unknown>, from: string, to: string): boolean {
    const pair = this.pair(map, from);
    if (!pair) return false;
    const taken = this.pair(map, to);
    if (taken)
      throw new MigrationError(
        `both \`${from}\` and \`${to}\` are here: \`${from}\` is the old name of \`${to}\`; keep one`,
        (pair.key as Scalar).range?.[0],
      );
    this.setScalar(pair.key as Scalar, to);
    return true;
  }

  /** Sets a scalar's value, in its own style (plain, quoted), as the file writes it. */
  setScalar(node: Scalar, value: string | number): void {
    if (!node.srcToken) throw new MigrationError("the document was not read with its tokens");
    CST.setScalarValue(node.srcToken as CST.Token, String(value));
    node.value = value;
  }
}
