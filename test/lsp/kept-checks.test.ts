/**
 * `graphspec lsp` keeps what it read of other files (a subgraph's spec, a tool module) from one
 * check to the next, and sees them change on disk; a burst of changes ends with the findings of
 * the last text. Through a real LSP client over the built CLI's stdio. Run `npm run build` first.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
} from "vscode-languageserver-protocol/node";
import { type LspSession, startLsp } from "./lsp-client.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-lsp-kept-"));
const parentPath = join(dir, "graphs", "parent.yaml");
const childPath = join(dir, "graphs", "child.yaml");
const toolPath = join(dir, "tools", "lookup.mjs");
const uri = pathToFileURL(parentPath).href;

const PARENT = (mark: string) => `version: 1
name: parent
state:
  ticket: { type: string, default: "${mark}" }
tools:
  lookup: { module: ../tools/lookup.mjs, export: lookup }
nodes:
  fetch: { kind: tool, tool: lookup, args: { id: "\${{ state.ticket }}" }, write: ticket }
  inner: { kind: subgraph, graph: ./child.yaml }
edges:
  - { from: START, to: fetch }
  - { from: fetch, to: inner }
  - { from: inner, to: END }
`;
const CHILD = (target: string) => `version: 1
name: child
state:
  ticket: { type: string, default: "" }
nodes:
  only: { kind: set, values: { ticket: done } }
edges:
  - { from: START, to: only }
  - { from: only, to: ${target} }
`;

let lsp: LspSession;
let version = 0;
/** Sends `text` as the parent's new version and waits for its diagnostics' rules. */
async function change(text: string) {
  const published = lsp.nextPublished(uri);
  version++;
  if (version === 1)
    await lsp.client.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: "yaml", version, text },
    });
  else
    await lsp.client.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });
  return (await published).map((d) => String(d.code));
}

/** Writes a file and moves its modification time on, so a change within one clock tick shows. */
function rewrite(path: string, text: string) {
  writeFileSync(path, text);
  const later = new Date(Date.now() + 2000 * version);
  utimesSync(path, later, later);
}

beforeAll(async () => {
  mkdirSync(join(dir, "graphs"));
  mkdirSync(join(dir, "tools"));
  writeFileSync(join(dir, "package.json"), "{}");
  writeFileSync(childPath, CHILD("END"));
  writeFileSync(toolPath, "export const lookup = async () => 'found';\n");
  lsp = await startLsp(dir);
});
afterAll(() => {
  lsp?.child.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe("graphspec lsp: what other files hold, kept between checks", () => {
  it("a subgraph broken and fixed on disk shows at the parent's next check", async () => {
    expect(await change(PARENT("a"))).toEqual([]);
    rewrite(childPath, CHILD("nowhere"));
    expect(await change(PARENT("b"))).toEqual(["subgraph-errors"]);
    expect(await change(PARENT("c"))).toEqual(["subgraph-errors"]);
    rewrite(childPath, CHILD("END"));
    expect(await change(PARENT("d"))).toEqual([]);
  });

  it("a tool module that loses its export, and gets it back", async () => {
    rewrite(toolPath, "export const other = async () => 'found';\n");
    expect(await change(PARENT("e"))).toEqual(["unknown-export"]);
    rewrite(toolPath, "export const lookup = async () => 'found';\n");
    expect(await change(PARENT("f"))).toEqual([]);
  });

  it("a burst of changes ends with the last text's findings, each publication labelled with the version it checked", async () => {
    const last = version + 10;
    const sent: Promise<void>[] = [];
    for (let i = 0; i < 10; i++) {
      version++;
      const text = i === 9 ? PARENT("z").replace("to: inner", "to: innr") : PARENT(`x${i}`);
      sent.push(
        lsp.client.sendNotification(DidChangeTextDocumentNotification.type, {
          textDocument: { uri, version },
          contentChanges: [{ text }],
        }),
      );
    }
    await Promise.all(sent);
    // Published as the checks finish: wait for the one of the last version.
    await expect
      .poll(() => lsp.published.filter((p) => p.uri === uri).at(-1)?.version, { timeout: 30_000 })
      .toBe(last);
    // Each publication is labelled with the version it checked: only the last has the finding.
    const burst = lsp.published.filter((p) => p.uri === uri && p.version! > last - 10);
    for (const p of burst)
      expect([p.version, p.diagnostics.some((d) => d.code === "unknown-node")]).toEqual([
        p.version,
        p.version === last,
      ]);
  });
});
