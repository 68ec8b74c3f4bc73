/**
 * The types of values crossing between a parent spec and a child it mounts, as the
 * `subgraph-channels` rule compares them: literals in `input`, a whole channel read by a bare
 * `${{ state.k }}` / `${{ output.k }}`, and the child's final state as `output` sees it.
 */
import { type ExprType, formatType, isTemplate, reducerName, T } from "../expr/index.js";
import { isObject } from "../spec/data.js";
import { reducerDoes } from "../spec/reducer-fit.js";

/** The type of a literal value; a template inside a list or map is `dyn` (checked where it stands). */
export function literalType(value: unknown): ExprType | undefined {
  if (typeof value === "string") return isTemplate(value) ? T.dyn : T.string;
  if (typeof value === "boolean") return T.bool;
  if (typeof value === "number") return Number.isInteger(value) ? T.int : T.double;
  if (value === null) return T.null;
  if (Array.isArray(value)) return T.list(T.dyn);
  if (isObject(value)) {
    const fields: Record<string, ExprType> = {};
    for (const [k, v] of Object.entries(value)) fields[k] = literalType(v) ?? T.dyn;
    return T.record("Literal", fields);
  }
  return undefined;
}

/** The channel a template reads whole (`${{ state.notes }}` → `notes`), or undefined. */
export function bareRead(value: unknown, variable: string): string | undefined {
  if (typeof value !== "string") return undefined;
  const m = /^\$\{\{\s*([A-Za-z_]\w*)\.([A-Za-z_]\w*)\s*\}\}$/.exec(value);
  return m && m[1] === variable ? m[2] : undefined;
}

/**
 * Whether a declared channel of type `from` is a map of undeclared keys crossing into a message
 * channel: `{ type: object }` promises no `role` and `content`, so the receiving `messages`
 * reducer refuses it at run time (unless the data happens to have them — declare them instead).
 */
export const mapIntoMessages = (from: ExprType, receiving: unknown): boolean =>
  from.kind === "map" && reducerName(receiving) === "messages";

/** Why a whole map is refused by a message channel, as a clause for messages; empty otherwise. */
export const mapNote = (from: ExprType, receiving: unknown): string =>
  mapIntoMessages(from, receiving)
    ? ": a map of undeclared keys is no message (declare `role` and `content` in its `properties`)"
    : "";

/** ` (reducer `merge`: merges mappings)` for a receiving channel whose built-in reducer narrows its writes. */
export function reducerNote(field: unknown): string {
  const reducer = reducerName(field);
  const does = reducer && reducer !== "append" && reducer !== "union" && reducerDoes(reducer);
  return does ? ` (reducer \`${reducer}\`: ${does})` : "";
}

/** How a crossing value is named in messages: `string`, or `map<string, dyn>`. */
export const shown = (t: ExprType): string => `\`${formatType(t)}\``;
