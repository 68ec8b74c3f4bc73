/**
 * `graphspec lsp` through a real LSP client (vscode-languageserver-protocol's JSON-RPC connection
 * over the built CLI's stdio): initialize, didOpen, didChange, publishDiagnostics, shutdown, exit.
 * The diagnostics are the ones `graphspec validate` prints for the same text, at the same ranges.
 * Run `npm run build` first.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  ShutdownRequest,
} from "vscode-languageserver-protocol/node";
import { type LspSession, startLsp } from "./lsp-client.js";

const BIN = join(import.meta.dirname, "..", "..", "bin", "graphspec.js");
const dir = mkdtempSync(join(tmpdir(), "graphspec-lsp-"));
const spec = join(dir, "graphs", "polish.yaml");
const uri = pathToFileURL(spec).href;

const BROKEN = `version: 1
name: polish
state:
  draft: { type: string, default: "" }
nodes:
  write: { kind: set, values: { draft: first draft } }
edges:
  - { from: START, to: write }
  - { from: write, to: wrte }
`;
const FIXED = BROKEN.replace("to: wrte", "to: END");

let lsp: LspSession;
const nextDiagnostics = () => lsp.nextPublished(uri);

beforeAll(async () => {
  mkdirSync(join(dir, "graphs"));
  writeFileSync(join(dir, "package.json"), "{}");
  writeFileSync(spec, BROKEN);
  lsp = await startLsp(dir);
  expect(lsp.init.serverInfo?.name).toBe("graphspec");
});

afterAll(async () => {
  lsp?.child.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe("graphspec lsp: diagnostics", () => {
  it("publishes validate's findings for the opened text, at validate's range, rule and hint", async () => {
    const got = nextDiagnostics();
    await lsp.client.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: "yaml", version: 1, text: BROKEN },
    });
    const diagnostics = await got;
    const cli = spawnSync(process.execPath, [BIN, "validate", spec, "--format", "json"], {
      encoding: "utf8",
    });
    const printed = JSON.parse(cli.stdout) as {
      rule: string;
      line: number;
      column: number;
      endLine: number;
      endColumn: number;
      message: string;
      hint?: string;
    }[];
    expect(printed.length).toBeGreaterThan(0);
    expect(diagnostics.map((d) => d.code)).toEqual(printed.map((d) => d.rule));
    for (const [i, d] of diagnostics.entries()) {
      const p = printed[i]!;
      expect(d.range).toEqual({
        start: { line: p.line - 1, character: p.column - 1 },
        end: { line: p.endLine - 1, character: p.endColumn - 1 },
      });
      expect(d.message).toBe(p.hint ? `${p.message}\n${p.hint}` : p.message);
      expect(d.source).toBe("graphspec");
    }
    expect(diagnostics.find((d) => d.code === "unknown-node")?.message).toMatch(/wrte[\s\S]*write/);
  });

  it("re-checks the unsaved text as it changes: fixed in the buffer, no diagnostics left", async () => {
    const got = nextDiagnostics();
    await lsp.client.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: FIXED }],
    });
    expect(await got).toEqual([]);
  });

  it("a prompt file's findings are shown in the prompt file, and cleared when it is no longer named", async () => {
    mkdirSync(join(dir, "graphs", "prompts"), { recursive: true });
    const prompt = join(dir, "graphs", "prompts", "p.md");
    writeFileSync(prompt, "Be brief.\nThe draft: ${{ state.drfat }}\n");
    const promptUri = pathToFileURL(prompt).href;
    const withPrompt = `${FIXED}models:\n  default: { model: "scripted:x" }\n`.replace(
      "  write: { kind: set, values: { draft: first draft } }",
      "  write: { kind: llm, system: { file: prompts/p.md }, prompt: hi, write: draft }",
    );
    const inPrompt = lsp.nextPublished(promptUri);
    await lsp.client.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 3 },
      contentChanges: [{ text: withPrompt }],
    });
    expect((await inPrompt).map((d) => [d.code, d.range.start.line])).toEqual([
      ["unknown-state-key", 1],
    ]);
    const after = lsp.nextPublished(promptUri);
    await lsp.client.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 4 },
      contentChanges: [{ text: FIXED }],
    });
    expect(await after).toEqual([]);
  });

  it("ends on shutdown and exit", async () => {
    const exited = new Promise<number | null>((r) => lsp.child.once("exit", (code) => r(code)));
    await lsp.client.sendRequest(ShutdownRequest.type);
    await lsp.client.sendNotification(ExitNotification.type);
    expect(await exited).toBe(0);
  });
});
