/**
 * The LSP tests' client: the built `graphspec lsp` started over stdio and a real JSON-RPC
 * connection to it (vscode-languageserver-protocol), initialized for a project folder, with every
 * `publishDiagnostics` kept in order.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  createProtocolConnection,
  type Diagnostic,
  InitializedNotification,
  InitializeRequest,
  type InitializeResult,
  type ProtocolConnection,
  PublishDiagnosticsNotification,
  type PublishDiagnosticsParams,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";

const BIN = join(import.meta.dirname, "..", "..", "bin", "graphspec.js");

export interface LspSession {
  client: ProtocolConnection;
  child: ChildProcess;
  init: InitializeResult;
  /** Every publishDiagnostics so far, in order. */
  published: PublishDiagnosticsParams[];
  /** The first diagnostics published for `uri` after the `from`th publication (default: from now). */
  nextPublished(uri: string, from?: number): Promise<Diagnostic[]>;
}

export async function startLsp(project: string): Promise<LspSession> {
  const child = spawn(process.execPath, [BIN, "lsp", "--stdio"], { stdio: "pipe" });
  const client = createProtocolConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const published: PublishDiagnosticsParams[] = [];
  const waiters: (() => void)[] = [];
  client.onNotification(PublishDiagnosticsNotification.type, (p) => {
    published.push(p);
    for (const wake of waiters.splice(0)) wake();
  });
  client.listen();
  const init = await client.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: pathToFileURL(project).href,
    capabilities: {},
    workspaceFolders: null,
  });
  await client.sendNotification(InitializedNotification.type, {});
  const nextPublished = (uri: string, from = published.length) =>
    new Promise<Diagnostic[]>((resolve) => {
      const look = () => {
        const found = published.slice(from).find((p) => p.uri === uri);
        if (found) resolve(found.diagnostics);
        else waiters.push(look);
      };
      look();
    });
  return { client, child, init, published, nextPublished };
}
