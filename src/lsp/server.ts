/**
 * `graphspec lsp`: a Language Server Protocol server over stdio (vscode-languageserver, the
 * library VS Code's own servers are built on). It publishes diagnostics — every validate rule on
 * the editor's unsaved text, with the ranges, rules, messages and hints the CLI prints, re-checked
 * as the text changes — completes the spec's names (completion.ts) and offers quick fixes
 * (code-actions.ts). It runs nothing of the repository: the checks are
 * `validate`'s, without `--load-modules`.
 */
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  CodeActionKind,
  type Connection,
  createConnection,
  MarkupKind,
  type Position,
  ProposedFeatures,
  TextDocumentSyncKind,
  TextDocuments,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { validate } from "../check/validate.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { SpecDocument } from "../spec/document.js";
import { readSpecText } from "../spec/load.js";
import { notASpec } from "../spec/not-a-spec.js";
import { PathProbes } from "../spec/path-probes.js";
import type { GraphSpec } from "../spec/spec-types.generated.js";
import { type Checked, codeActionsAt } from "./code-actions.js";
import { completionsAt } from "./completion.js";
import { toLspDiagnostic } from "./diagnostics.js";
import { KeptCache } from "./kept-cache.js";
import { registerNavigation } from "./navigation.js";
import { declarationOf, describe, symbolAt } from "./symbols.js";

export function startLanguageServer(
  connection: Connection = createConnection(ProposedFeatures.all),
) {
  const documents = new TextDocuments(TextDocument);
  // The check running for each document, and the documents changed while theirs runs.
  const pending = new Map<string, Promise<void>>();
  const dirty = new Set<string>();
  // Child specs and modules, read and checked once until they change on disk (kept-cache.ts).
  const kept = new KeptCache();
  // Each check's number per document: an answer overtaken by a newer text is not published.
  const latest = new Map<string, number>();
  // Each document's last text that parsed: names to complete while a line is half typed.
  const lastGood = new Map<string, SpecDocument>();
  // The other files (prompt files, a catalog) each document's last check published findings to.
  const publishedElsewhere = new Map<string, Set<string>>();
  // Each document's last checked text and its findings there: what quick fixes edit.
  const checked = new Map<string, Checked>();

  connection.onInitialize(() => ({
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      completionProvider: { triggerCharacters: [".", ":", " ", "[", ","] },
      hoverProvider: true,
      definitionProvider: true,
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
      referencesProvider: true,
      renameProvider: { prepareProvider: true },
    },
    serverInfo: { name: "graphspec" },
  }));

  const check = async (doc: TextDocument) => {
    const ticket = (latest.get(doc.uri) ?? 0) + 1;
    latest.set(doc.uri, ticket);
    if (!doc.uri.startsWith("file:")) return;
    const path = fileURLToPath(doc.uri);
    const probes = new PathProbes();
    // The document object is updated in place by later changes: its text and version now.
    const { version } = doc;
    const spec = await readSpecText(path, doc.getText(), {
      file: path,
      probes,
    });
    // A YAML or JSON file that is not a spec (a workflow, a package.json) is not ours to judge.
    const notSpec = notASpec(spec);
    if (!notSpec && spec.data && typeof spec.data === "object") lastGood.set(doc.uri, spec);
    kept.refresh();
    const found = notSpec ? [] : await validate(spec, { probes, cache: kept.map });
    kept.record();
    // Changed since: the check queued for the change publishes (these findings are of an old text).
    if (latest.get(doc.uri) !== ticket || doc.version !== version) return;
    // Findings of the spec's prompt files and catalog are shown in those files; a file that had
    // some from this spec and has none now is cleared.
    const byFile = new Map<string, Diagnostic[]>([[path, []]]);
    for (const d of found) {
      const file = resolve(d.file);
      const list = byFile.get(file);
      if (list) list.push(d);
      else byFile.set(file, [d]);
    }
    const others = new Set([...byFile.keys()].filter((f) => f !== path));
    for (const gone of publishedElsewhere.get(doc.uri) ?? [])
      if (!others.has(gone)) byFile.set(gone, []);
    publishedElsewhere.set(doc.uri, others);
    if (notSpec) checked.delete(doc.uri);
    else
      checked.set(doc.uri, {
        uri: doc.uri,
        version,
        parsed: spec,
        findings: byFile.get(path)!,
      });
    for (const [file, diagnostics] of byFile)
      await connection.sendDiagnostics({
        uri: file === path ? doc.uri : pathToFileURL(file).href,
        ...(file === path ? { version } : {}),
        diagnostics: diagnostics.map(toLspDiagnostic),
      });
  };
  // A change is checked at once; changes that come while a check runs are checked together after
  // it (a fixed delay would add its length to every change's wait).
  const schedule = (doc: TextDocument) => {
    const uri = doc.uri;
    if (pending.has(uri)) {
      dirty.add(uri);
      return;
    }
    const run = async () => {
      do {
        // Notifications read in the same turn (a burst of keystrokes; an open, which is also a
        // change of content) are checked once.
        await new Promise((r) => setImmediate(r));
        dirty.delete(uri);
        const now = documents.get(uri);
        if (!now) return;
        await check(now).catch((e) =>
          connection.console.error(`graphspec: checking ${uri} failed: ${(e as Error).message}`),
        );
      } while (dirty.has(uri));
    };
    pending.set(
      uri,
      run().finally(() => pending.delete(uri)),
    );
  };
  connection.onCompletion(({ textDocument, position }) => {
    const doc = documents.get(textDocument.uri);
    if (!doc) return [];
    const before = doc.getText({ start: { line: position.line, character: 0 }, end: position });
    return completionsAt(before, lastGood.get(textDocument.uri)?.data as GraphSpec | undefined, {
      lines: doc.getText().split(/\r?\n/),
      line: position.line,
    });
  });
  /** The name under the cursor, with the last good parse of its document. */
  const symbolUnder = (uri: string, position: Position) => {
    const doc = documents.get(uri);
    const parsed = lastGood.get(uri);
    if (!doc || !parsed) return undefined;
    const line = doc.getText({
      start: { line: position.line, character: 0 },
      end: { line: position.line + 1, character: 0 },
    });
    const symbol = symbolAt(line, position.character, parsed.data as GraphSpec);
    return symbol && { symbol, parsed };
  };
  connection.onHover(({ textDocument, position }) => {
    const found = symbolUnder(textDocument.uri, position);
    if (!found) return null;
    return {
      contents: {
        kind: MarkupKind.Markdown,
        value: describe(found.symbol, found.parsed.data as GraphSpec),
      },
    };
  });
  connection.onDefinition(({ textDocument, position }) => {
    const found = symbolUnder(textDocument.uri, position);
    if (!found) return null;
    const at = declarationOf(found.parsed, found.symbol);
    return {
      uri: pathToFileURL(at.path).href,
      range: {
        start: { line: at.line - 1, character: at.column - 1 },
        end: { line: at.endLine - 1, character: at.endColumn - 1 },
      },
    };
  });
  connection.onCodeAction(({ textDocument, range }) => {
    const last = checked.get(textDocument.uri);
    // Offsets of an older text would edit the wrong place: fixes wait for the next check.
    if (!last || last.version !== documents.get(textDocument.uri)?.version) return [];
    return codeActionsAt(last, range);
  });
  registerNavigation(connection, documents, (uri) => lastGood.get(uri));
  documents.onDidOpen((e) => schedule(e.document));
  documents.onDidChangeContent((e) => schedule(e.document));
  documents.onDidClose((e) => {
    dirty.delete(e.document.uri);
    latest.delete(e.document.uri);
    lastGood.delete(e.document.uri);
    checked.delete(e.document.uri);
    for (const file of publishedElsewhere.get(e.document.uri) ?? [])
      void connection.sendDiagnostics({ uri: pathToFileURL(file).href, diagnostics: [] });
    publishedElsewhere.delete(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });
  documents.listen(connection);
  connection.listen();
  return connection;
}
