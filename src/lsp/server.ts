/**
 * `graphspec lsp`: a Language Server Protocol server over stdio (vscode-languageserver, the
 * library VS Code's own servers are built on). This first slice publishes diagnostics: every
 * validate rule on the editor's unsaved text, with the ranges, rules, messages and hints the CLI
 * prints, re-checked as the text changes. It runs nothing of the repository: the checks are
 * `validate`'s, without `--load-modules`.
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type Connection,
  createConnection,
  ProposedFeatures,
  TextDocumentSyncKind,
  TextDocuments,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { validate } from "../check/validate.js";
import { readSpecText } from "../spec/load.js";
import { notASpec } from "../spec/not-a-spec.js";
import { PathProbes } from "../spec/path-probes.js";
import { toLspDiagnostic } from "./diagnostics.js";

/** A burst of keystrokes is checked once, this long after the last. */
const SETTLE_MS = 60;

export function startLanguageServer(
  connection: Connection = createConnection(ProposedFeatures.all),
) {
  const documents = new TextDocuments(TextDocument);
  const pending = new Map<string, NodeJS.Timeout>();
  // Each check's number per document: an answer overtaken by a newer text is not published.
  const latest = new Map<string, number>();

  connection.onInitialize(() => ({
    capabilities: { textDocumentSync: TextDocumentSyncKind.Incremental },
    serverInfo: { name: "graphspec" },
  }));

  const check = async (doc: TextDocument) => {
    const ticket = (latest.get(doc.uri) ?? 0) + 1;
    latest.set(doc.uri, ticket);
    if (!doc.uri.startsWith("file:")) return;
    const path = fileURLToPath(doc.uri);
    const probes = new PathProbes();
    const spec = await readSpecText(path, doc.getText(), {
      file: path,
      root: probes.projectRoot(dirname(path)),
      probes,
    });
    // A YAML or JSON file that is not a spec (a workflow, a package.json) is not ours to judge.
    const found = notASpec(spec) ? [] : await validate(spec, { probes });
    if (latest.get(doc.uri) !== ticket) return;
    const own = found.filter((d) => resolve(d.file) === path);
    await connection.sendDiagnostics({
      uri: doc.uri,
      version: doc.version,
      diagnostics: own.map(toLspDiagnostic),
    });
  };
  const schedule = (doc: TextDocument) => {
    clearTimeout(pending.get(doc.uri));
    pending.set(
      doc.uri,
      setTimeout(() => {
        pending.delete(doc.uri);
        check(doc).catch((e) =>
          connection.console.error(
            `graphspec: checking ${doc.uri} failed: ${(e as Error).message}`,
          ),
        );
      }, SETTLE_MS),
    );
  };
  documents.onDidOpen((e) => schedule(e.document));
  documents.onDidChangeContent((e) => schedule(e.document));
  documents.onDidClose((e) => {
    clearTimeout(pending.get(e.document.uri));
    latest.delete(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });
  documents.listen(connection);
  connection.listen();
  return connection;
}
