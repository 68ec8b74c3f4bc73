/**
 * Completion from where the cursor stands on its line: node names after `from:`, `to:`, `goto:` and
 * `default:` (in edges and routes, in flow or block style), fields inside expressions after
 * `state.`, `context.`, `output.`, `item.` and below (expression-completion.ts), node kinds after `kind:`, reducers after
 * `reducer:`, models after `model:` and in `allow`, tools inside `tools: [`, `approve: [` or after
 * `tool:` — in flow lists, or as items of block ones. The
 * names come from the document's last text that parsed (a half-typed line does not parse).
 */
import { type CompletionItem, CompletionItemKind } from "vscode-languageserver/node";
import type { GraphSpec } from "../spec/spec-types.generated.js";
import { expressionFields, outline } from "./expression-completion.js";

const KINDS = ["llm", "agent", "tools", "tool", "function", "interrupt", "subgraph", "set"];
const REDUCERS = ["replace", "append", "merge", "sum", "max", "min", "union", "messages"];

const names = (map: object | undefined) => Object.keys(map ?? {});
const items = (labels: string[], kind: CompletionItemKind, detail?: (l: string) => string) =>
  labels.map(
    (label): CompletionItem => ({ label, kind, ...(detail ? { detail: detail(label) } : {}) }),
  );

/** The document around the cursor: its lines and the cursor's line, for where an expression is. */
export interface Around {
  lines: string[];
  line: number;
}

/** What to offer at the end of `before` (the line up to the cursor), from the last good `spec`. */
export function completionsAt(
  before: string,
  spec: GraphSpec | undefined,
  around: Around = { lines: [before], line: 0 },
): CompletionItem[] {
  const fields = expressionFields(before, around.lines, around.line, spec);
  if (fields)
    return fields.map(({ name, type }) => ({
      label: name,
      kind: CompletionItemKind.Field,
      detail: type,
    }));
  // An item of a block list: what the key above it lists.
  if (/^\s*-\s*[\w-]*$/.test(before)) {
    const key = outline(around.lines, around.line, before).at(-1);
    if (key === "tools" || key === "approve") before = `tools: [`;
    else if (key === "allow") before = "model: ";
    else if (key === "from" || key === "to" || key === "goto") before = `${key}: `;
  }
  if (/\bkind:\s*\w*$/.test(before)) return items(KINDS, CompletionItemKind.EnumMember);
  if (/\breducer:\s*\w*$/.test(before)) return items(REDUCERS, CompletionItemKind.EnumMember);
  if (/\bmodel:\s*[\w-]*$/.test(before))
    return items(names(spec?.models), CompletionItemKind.Value);
  if (/\b(?:tools|approve):\s*\[[^\]]*$/.test(before) || /\btool:\s*[\w-]*$/.test(before))
    return items(names(spec?.tools), CompletionItemKind.Function);
  const edge = /\b(from|to|goto|default):\s*(\[[^\]]*)?[\w-]*$/.exec(before);
  if (edge) {
    const nodes = names(spec?.nodes);
    const ends = edge[1] === "from" ? ["START"] : ["END"];
    return items([...nodes, ...ends], CompletionItemKind.Class, (n) =>
      spec?.nodes?.[n] ? `${spec.nodes[n]!.kind} node` : "",
    );
  }
  return [];
}
