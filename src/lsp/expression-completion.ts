/**
 * Completion inside expressions (`${{ }}` templates and CEL fields): the fields after
 * `state.`, `context.`, `output.`, `item.`, `resume.` or `error.` and after any chain of fields
 * and indexes below them (`state.ticket.`, `state.items[0].`), from the types the checker gives
 * those variables — the declared channels and context keys, a node's `output.schema`, an
 * interrupt's `schema`, the element of a map edge's `over` list.
 *
 * Where the cursor stands is read from the text as typed (a half-typed expression seldom
 * parses): the keys above it by indentation and before it on its line, so `output.` in an llm
 * node's `write` has that node's output; the declarations come from the last text that parsed.
 */
import {
  ERROR_TYPE,
  ExprEnvironment,
  type ExprType,
  formatType,
  MESSAGE_TYPE,
  T,
  typeFromSchema,
} from "../expr/index.js";
import { isObject } from "../spec/data.js";
import type { GraphSpec } from "../spec/spec-types.generated.js";

/** A variable, then `.field` and `[index]` steps, then the partial name being typed. */
const CHAIN =
  /\b(state|context|output|item|resume|error|result)((?:\.[A-Za-z_]\w*|\[[^\][]*\])*)\.(\w*)$/;
const STEP = /\.([A-Za-z_]\w*)|\[[^\][]*\]/g;
const KEY = /^\s*(?:-\s+)?["']?([\w-]+)["']?\s*:/;

/** The keys enclosing line `line` by indentation, outermost first, then those opened on the line. */
export function outline(lines: string[], line: number, before: string): string[] {
  const keys: string[] = [];
  let indent = before.search(/\S|$/);
  for (let i = line - 1; i >= 0 && indent > 0; i--) {
    const text = lines[i]!;
    if (!text.trim() || text.trimStart().startsWith("#")) continue;
    const at = text.search(/\S/);
    if (at >= indent) continue;
    indent = at;
    const key = KEY.exec(text)?.[1];
    if (key) keys.unshift(key);
  }
  const own = before.match(/["']?[\w-]+["']?\s*:/g) ?? [];
  return [...keys, ...own.map((k) => k.replace(/["':\s]/g, ""))];
}

/** Which item of the top-level `edges:` list line `line` is in (block style, `- ` items). */
function edgeIndex(lines: string[], line: number): number | undefined {
  let start = -1;
  for (let i = line; i >= 0; i--)
    if (/^edges\s*:/.test(lines[i]!)) {
      start = i;
      break;
    }
  if (start < 0) return undefined;
  let itemIndent = -1;
  let index = -1;
  for (let i = start + 1; i <= line; i++) {
    const m = /^(\s*)-\s/.exec(lines[i]!);
    if (!m) continue;
    if (itemIndent < 0) itemIndent = m[1]!.length;
    if (m[1]!.length === itemIndent) index++;
  }
  return index < 0 ? undefined : index;
}

/** The node-local variables in scope where the cursor is (`output`, `item`, …), by their types. */
function localsAt(
  spec: GraphSpec,
  env: ExprEnvironment,
  lines: string[],
  line: number,
  before: string,
): Record<string, ExprType> {
  const keys = outline(lines, line, before);
  if (keys[0] === "nodes" && keys[1]) {
    const node = isObject(spec.nodes) ? spec.nodes[keys[1]] : undefined;
    if (!isObject(node)) return {};
    if (keys.includes("on_error")) return { error: ERROR_TYPE };
    if (!keys.includes("write") && !(node.kind === "subgraph" && keys.includes("output")))
      return {};
    const schema = (s: unknown, name: string) =>
      s === undefined ? undefined : typeFromSchema(s, name);
    if (node.kind === "llm" || node.kind === "agent")
      return {
        output:
          schema(isObject(node.output) ? node.output.schema : undefined, "Output") ?? MESSAGE_TYPE,
      };
    if (node.kind === "interrupt") return { resume: schema(node.schema, "Resume") ?? T.dyn };
    if (node.kind === "tool") return { result: T.dyn };
    return { output: T.dyn };
  }
  if (keys[0] === "edges" && keys.includes("with")) {
    const i = edgeIndex(lines, line);
    const edge = i === undefined || !Array.isArray(spec.edges) ? undefined : spec.edges[i];
    const over = isObject(edge) && isObject(edge.map) ? edge.map.over : undefined;
    if (typeof over !== "string") return {};
    const r = env.check(over, env.scope("`map.over`"));
    return { item: r.ok && r.type.kind === "list" ? r.type.item : T.dyn };
  }
  return {};
}

/** The type one step below `t`: a record's field, a list's element, a map's value. */
function step(t: ExprType, field: string | undefined): ExprType | undefined {
  if (t.kind === "union") {
    for (const branch of t.of) {
      const found = step(branch, field);
      if (found) return found;
    }
    return undefined;
  }
  if (field === undefined)
    return t.kind === "list" ? t.item : t.kind === "map" ? t.value : undefined;
  if (t.kind === "record") return Object.hasOwn(t.fields, field) ? t.fields[field] : undefined;
  return t.kind === "map" ? t.value : undefined;
}

/** The fields to offer after `before`, with their types; undefined when no chain ends there. */
export function expressionFields(
  before: string,
  lines: string[],
  line: number,
  spec: GraphSpec | undefined,
): { name: string; type: string }[] | undefined {
  const m = CHAIN.exec(before);
  if (!m) return undefined;
  const env = ExprEnvironment.for({ state: spec?.state, context: spec?.context });
  const root = m[1]!;
  let type: ExprType | undefined =
    root === "state"
      ? env.state
      : root === "context"
        ? env.context
        : spec
          ? localsAt(spec, env, lines, line, before)[root]
          : undefined;
  for (const s of (m[2] ?? "").matchAll(STEP)) {
    if (!type) break;
    type = step(type, s[1]);
  }
  const record = type?.kind === "union" ? type.of.find((t) => t.kind === "record") : type;
  if (record?.kind !== "record") return [];
  return Object.entries(record.fields).map(([name, t]) => ({ name, type: formatType(t) }));
}
