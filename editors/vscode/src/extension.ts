/**
 * graphspec for VS Code: one `graphspec lsp` per workspace folder, started from the folder's own
 * `node_modules/.bin/graphspec` (the version its CI checks with) or the `graphspec.path`
 * setting, for the folder's YAML and JSON files. Everything else — diagnostics, completion,
 * hover, definition, quick fixes — is the server's; this file only starts and stops it.
 */
import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import * as vscode from "vscode";
import {
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";

const clients = new Map<string, LanguageClient>();
let output: vscode.OutputChannel | undefined;

/** The graphspec executable for a folder: its node_modules', else the setting's; undefined if none. */
function executableFor(folder: vscode.WorkspaceFolder): string | undefined {
  const bin = join(
    folder.uri.fsPath,
    "node_modules",
    ".bin",
    process.platform === "win32" ? "graphspec.cmd" : "graphspec",
  );
  if (existsSync(bin)) return bin;
  const setting = vscode.workspace
    .getConfiguration("graphspec", folder.uri)
    .get<string>("path", "")
    .trim();
  if (!setting) return undefined;
  return isAbsolute(setting) ? setting : join(folder.uri.fsPath, setting);
}

async function start(folder: vscode.WorkspaceFolder): Promise<void> {
  if (folder.uri.scheme !== "file" || clients.has(folder.uri.toString())) return;
  const command = executableFor(folder);
  if (!command) {
    output?.appendLine(
      `${folder.name}: no node_modules/.bin/graphspec and no graphspec.path: graphspec lsp not started (npm install --save-dev graphspec)`,
    );
    return;
  }
  const serverOptions: ServerOptions = {
    command,
    args: ["lsp"],
    // The client adds `--stdio`.
    transport: TransportKind.stdio,
    // A .cmd shim runs through the shell on Windows.
    options: { cwd: folder.uri.fsPath, shell: process.platform === "win32" },
  };
  const pattern = `${folder.uri.fsPath.replaceAll("\\", "/")}/**/*`;
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "yaml", pattern },
      { scheme: "file", language: "json", pattern },
    ],
    workspaceFolder: folder,
    ...(output ? { outputChannel: output } : {}),
  };
  const client = new LanguageClient(
    "graphspec",
    `graphspec (${folder.name})`,
    serverOptions,
    clientOptions,
  );
  clients.set(folder.uri.toString(), client);
  await client.start();
}

async function stop(folder: vscode.WorkspaceFolder): Promise<void> {
  const client = clients.get(folder.uri.toString());
  clients.delete(folder.uri.toString());
  await client?.stop();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("graphspec");
  context.subscriptions.push(
    output,
    vscode.workspace.onDidChangeWorkspaceFolders(async (e) => {
      for (const folder of e.removed) await stop(folder);
      for (const folder of e.added) await start(folder);
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      for (const folder of vscode.workspace.workspaceFolders ?? []) {
        if (!e.affectsConfiguration("graphspec.path", folder.uri)) continue;
        await stop(folder);
        await start(folder);
      }
    }),
  );
  for (const folder of vscode.workspace.workspaceFolders ?? []) await start(folder);
}

export async function deactivate(): Promise<void> {
  await Promise.all([...clients.values()].map((c) => c.stop()));
  clients.clear();
}
