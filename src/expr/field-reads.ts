/**
 * Where an expression reads a named field of a variable — `state.ticket`, `state["ticket"]`,
 * `has(output.notes)` — found in cel-js's parse tree, not in the text: `"state.ticket"` in a
 * string literal, `state.tickets`, and a macro's own variable that shadows `state` are not reads.
 * For the language server's references and rename.
 */
import { type AstNode, isAstNode, parseTree } from "./parse-tree.js";

/** A field read: the variable, the field's name and its offsets in the source ([start, end)). */
export interface FieldRead {
  variable: string;
  field: string;
  start: number;
  end: number;
}

interface Node extends AstNode {
  range?: { start: number; end: number };
}

const isNode = (v: unknown): v is Node => isAstNode(v);

/** The macros whose first argument names a variable bound inside their body. */
const BINDING_MACROS = new Set(["all", "exists", "exists_one", "map", "filter"]);

/**
 * Every `variable.field` and `variable["field"]` of `variables` in `source`; undefined when the
 * source does not parse. Offsets cover the field's name only (inside the quotes of an index).
 */
export function fieldReads(source: string, variables: readonly string[]): FieldRead[] | undefined {
  const root = parseTree(source);
  if (root === undefined) return undefined;
  const out: FieldRead[] = [];
  // An explicit stack: an expression may nest as deep as the parse limits allow.
  const stack: [unknown, ReadonlySet<string>][] = [[root, new Set()]];
  while (stack.length) {
    const [n, shadowed] = stack.pop()!;
    if (Array.isArray(n)) {
      for (const item of n) stack.push([item, shadowed]);
      continue;
    }
    if (!isNode(n)) continue;
    const args = Array.isArray(n.args) ? n.args : [];
    const receiver = args[0];
    const variable =
      isNode(receiver) && receiver.op === "id" && typeof receiver.args === "string"
        ? receiver.args
        : undefined;
    const read = variable !== undefined && variables.includes(variable) && !shadowed.has(variable);
    if (read && (n.op === "." || n.op === ".?") && typeof args[1] === "string" && n.range) {
      // The field's name ends the selection: `state . ticket` as well as `state.ticket`.
      const field = args[1];
      if (source.slice(n.range.end - field.length, n.range.end) === field)
        out.push({ variable, field, start: n.range.end - field.length, end: n.range.end });
    } else if (read && (n.op === "[]" || n.op === "[?]")) {
      const key = args[1];
      if (isNode(key) && key.op === "value" && typeof key.args === "string" && key.range) {
        // Only a plain quoted name: an escape or a raw string would not map back to the text.
        const raw = source.slice(key.range.start, key.range.end);
        if (raw === `"${key.args}"` || raw === `'${key.args}'`)
          out.push({
            variable,
            field: key.args,
            start: key.range.start + 1,
            end: key.range.end - 1,
          });
      }
    }
    if (n.op === "rcall" && BINDING_MACROS.has(String(args[0]))) {
      // `list.map(state, state.x)`: inside the body, `state` is the macro's own variable.
      const [, target, macroArgs] = args;
      const bound = Array.isArray(macroArgs) ? macroArgs[0] : undefined;
      stack.push([target, shadowed]);
      if (isNode(bound) && bound.op === "id" && typeof bound.args === "string") {
        const inner = new Set(shadowed).add(bound.args);
        stack.push([macroArgs, inner]);
      } else stack.push([macroArgs, shadowed]);
      continue;
    }
    for (const a of args) stack.push([a, shadowed]);
  }
  return out.sort((a, b) => a.start - b.start);
}
