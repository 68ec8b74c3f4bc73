/** Scopes: which variables an expression may read at a kind of place, and their types. */
import type { ExprType } from "./types.js";

/** The variables an expression may read at one kind of place, with their types. */
export interface Scope {
  readonly variables: Readonly<Record<string, ExprType>>;
  /** The place, for messages: "a `set` node", "`models`". */
  readonly where: string;
}

/** Every variable graphspec defines, and where it exists: used to explain a variable used out of place. */
export const VARIABLE_HOMES: Readonly<Record<string, string>> = {
  state: "everywhere except `models`",
  context: "everywhere except `models`",
  output: "in the `write` of `llm` and `agent` nodes and in the `output` of `subgraph` nodes",
  result: "in the `write` of `tool` nodes",
  resume: "in the `write` of `interrupt` nodes",
  item: "in `map.with`",
  error: "in `on_error.write`",
  env: "in `models`",
};

/** "`a`, `b` or `c`" (expr/ keeps its own copy: it imports nothing from check/). */
export function nameList(names: readonly string[]): string {
  const shown = names.map((n) => `\`${n}\``);
  if (shown.length <= 1) return shown.join("");
  return `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}`;
}

/** "in scope here: `state` and `context`". */
export const inScopeHint = (scope: Scope): string =>
  `in scope here: ${nameList(Object.keys(scope.variables)) || "no variables"}`;
