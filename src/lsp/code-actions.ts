/**
 * Quick fixes for the findings of a document's last check: a did-you-mean hint's name in place
 * of the misspelt one (`Diagnostic.replacement`), `- { default: END }` added to a route with no
 * default (route-no-default), an undeclared channel declared under `state` with the type its
 * writes give it (unknown-state-key). Each is one edit to the document, as its checked text stood.
 */
import {
  type CodeAction,
  CodeActionKind,
  type Range,
  type TextEdit,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { isObject } from "../spec/data.js";
import { locateSpan, type SpecDocument } from "../spec/document.js";
import type { GraphSpec } from "../spec/spec-types.generated.js";
import { toLspDiagnostic } from "./diagnostics.js";
import { fieldText, inferChannel } from "./infer-channel.js";
import { addEntry, appendItem, type Insertion } from "./insert-entry.js";

/** A document's last check: the text as parsed and the findings in that file. */
export interface Checked {
  uri: string;
  version: number;
  parsed: SpecDocument;
  findings: Diagnostic[];
}

const NAME = /^[A-Za-z_][\w-]*$/;

const overlaps = (a: Range, b: Range) =>
  !(
    a.end.line < b.start.line ||
    (a.end.line === b.start.line && a.end.character < b.start.character) ||
    b.end.line < a.start.line ||
    (b.end.line === a.start.line && b.end.character < a.start.character)
  );

/** `name` as it replaces `written`: a quoted value stays quoted the same way. */
function requote(written: string, name: string): string {
  if (written.length >= 2 && written.startsWith('"') && written.endsWith('"'))
    return JSON.stringify(name);
  if (written.length >= 2 && written.startsWith("'") && written.endsWith("'"))
    return `'${name.replaceAll("'", "''")}'`;
  return name;
}

/** The word a finding stands on, without its quotes. */
const unquoted = (written: string) => written.replace(/^(["'])(.*)\1$/, "$2");

/** The edges index of the route a route-no-default finding stands at (its `route` key). */
function routeEdge(parsed: SpecDocument, d: Diagnostic): number | undefined {
  const edges = (parsed.data as GraphSpec).edges;
  if (!Array.isArray(edges)) return undefined;
  return edges.findIndex((edge, i) => {
    if (!isObject(edge) || !Array.isArray(edge.route)) return false;
    const at = locateSpan(parsed, parsed.map.span(["edges", i, "route"], "key"));
    return at.line === d.line && at.column === d.column;
  });
}

export function codeActionsAt(checked: Checked, range: Range): CodeAction[] {
  const { parsed, uri } = checked;
  const text = TextDocument.create(uri, parsed.format, checked.version, parsed.text);
  const spec = parsed.data as GraphSpec;
  const actions: CodeAction[] = [];
  const insert = (i: Insertion): TextEdit => {
    const at = text.positionAt(i.offset);
    return { range: { start: at, end: at }, newText: i.text };
  };
  const action = (
    title: string,
    d: ReturnType<typeof toLspDiagnostic>,
    edit: TextEdit,
    isPreferred = false,
  ) => {
    // One channel declared for three findings is one fix that resolves all three.
    const same = actions.find(
      (x) => x.title === title && JSON.stringify(x.edit?.changes?.[uri]) === JSON.stringify([edit]),
    );
    if (same) same.diagnostics!.push(d);
    else
      actions.push({
        title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [d],
        isPreferred,
        edit: { changes: { [uri]: [edit] } },
      });
  };

  for (const d of checked.findings) {
    const lsp = toLspDiagnostic(d);
    if (!overlaps(lsp.range, range)) continue;
    const written = text.getText(lsp.range);
    if (d.replacement !== undefined) {
      const newText = requote(written, d.replacement);
      action(`Change to \`${d.replacement}\``, lsp, { range: lsp.range, newText }, true);
    }
    if (d.rule === "route-no-default") {
      const i = routeEdge(parsed, d);
      const route = i === undefined || i < 0 ? undefined : spec.edges[i];
      const count =
        route && "route" in route && Array.isArray(route.route) ? route.route.length : 0;
      const added = appendItem(parsed, ["edges", i ?? 0, "route"], count, {
        block: "{ default: END }",
        flow: parsed.format === "json" ? '{ "default": "END" }' : "{ default: END }",
      });
      if (added) action("Add `- { default: END }` to the route", lsp, insert(added));
    }
    if (d.rule === "unknown-state-key" && d.replacement === undefined) {
      // A key written or read (the finding's word), or the `messages` channel a node needs.
      const name = /`messages` channel/.test(d.message) ? "messages" : unquoted(written);
      const state = isObject(spec.state) ? spec.state : {};
      if (!NAME.test(name) || Object.hasOwn(state, name)) continue;
      const field = inferChannel(spec, name);
      const added = addEntry(parsed, ["state"], name, fieldText(field));
      if (added) action(`Declare \`${name}\` in state (${String(field.type)})`, lsp, insert(added));
    }
  }
  return actions;
}
