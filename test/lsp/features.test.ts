/**
 * `graphspec lsp`'s editing features through a real LSP client over the built CLI's stdio:
 * completion (node names in edges, channels after `state.`, context keys after `context.`, kinds,
 * reducers, tools), hover and go-to-definition of a spec's names.
 * Run `npm run build` first.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CompletionRequest,
  DefinitionRequest,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  HoverRequest,
  type ProtocolConnection,
} from "vscode-languageserver-protocol/node";
import { type LspSession, startLsp } from "./lsp-client.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-lsp-completion-"));
const spec = join(dir, "graphs", "triage.yaml");
const uri = pathToFileURL(spec).href;

const TEXT = `version: 1
name: triage
state:
  ticket: { type: string, default: "" }
  priority: { type: string, reducer: replace, default: low }
context:
  user_id: { type: string }
tools:
  lookup: { module: ../tools/lookup.mjs, description: Look it up., schema: { type: object } }
nodes:
  classify: { kind: set, values: { priority: high } }
  answer: { kind: set, values: { ticket: "done" } }
edges:
  - { from: START, to: classify }
  - { from: classify, to: answer }
  - { from: answer, to: END }
`;

let lsp: LspSession;
let client: ProtocolConnection;
let version = 1;

beforeAll(async () => {
  mkdirSync(join(dir, "graphs"));
  writeFileSync(join(dir, "package.json"), "{}");
  writeFileSync(spec, TEXT);
  lsp = await startLsp(dir);
  client = lsp.client;
  const checked = lsp.nextPublished(uri);
  await client.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: "yaml", version, text: TEXT },
  });
  // Checked once: the names it completes are the checked text's.
  await checked;
});
afterAll(() => {
  lsp?.child.kill();
  rmSync(dir, { recursive: true, force: true });
});

/** The labels offered with `typed` appended as a new last line, the cursor at its end. */
async function offered(typed: string): Promise<string[]> {
  const text = `${TEXT}${typed}`;
  await client.sendNotification(DidChangeTextDocumentNotification.type, {
    textDocument: { uri, version: ++version },
    contentChanges: [{ text }],
  });
  const lines = text.split("\n");
  const got = await client.sendRequest(CompletionRequest.type, {
    textDocument: { uri },
    position: { line: lines.length - 1, character: lines.at(-1)!.length },
  });
  const list = Array.isArray(got) ? got : (got?.items ?? []);
  return list.map((i) => i.label);
}

describe("graphspec lsp: completion", () => {
  it("node names after to: and from: (END and START where they fit)", async () => {
    expect(await offered("  - { from: classify, to: ")).toEqual(["classify", "answer", "END"]);
    expect(await offered("  - { from: ")).toEqual(["classify", "answer", "START"]);
    expect(await offered("  - { from: answer, to: [classify, ")).toContain("answer");
  });

  it("channels after state., context keys after context.", async () => {
    expect(await offered("  # ${{ state.")).toEqual(["ticket", "priority"]);
    expect(await offered("  # ${{ size(context.")).toEqual(["user_id"]);
  });

  it("node kinds, reducers and tools", async () => {
    expect(await offered("    kind: ")).toContain("interrupt");
    expect(await offered("    reducer: ")).toContain("append");
    expect(await offered("    tools: [")).toEqual(["lookup"]);
  });

  it("nothing where no name fits", async () => {
    expect(await offered("  plain text")).toEqual([]);
  });
});

/** The position of the `nth` occurrence of `word` in TEXT (0-based line and character). */
const at = (word: string, nth = 0) => {
  let from = -1;
  for (let i = 0; i <= nth; i++) from = TEXT.indexOf(word, from + 1);
  const before = TEXT.slice(0, from).split("\n");
  return { line: before.length - 1, character: before.at(-1)!.length + 1 };
};

describe("graphspec lsp: hover and go to definition", () => {
  beforeAll(async () => {
    await client.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: ++version },
      contentChanges: [{ text: TEXT }],
    });
  });

  it("hover on a node in an edge says its kind; on a channel, its type, reducer and default", async () => {
    const node = await client.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: at("classify", 2),
    });
    expect(JSON.stringify(node?.contents)).toContain("set node");
    const channel = await client.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: at("priority", 1),
    });
    expect(JSON.stringify(channel?.contents)).toMatch(
      /state channel.*priority.*string.*replace.*low/,
    );
    const nothing = await client.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: at("version"),
    });
    expect(nothing).toBeNull();
  });

  it("definition of a node named in an edge is its key under nodes:", async () => {
    const target = await client.sendRequest(DefinitionRequest.type, {
      textDocument: { uri },
      position: at("answer", 2),
    });
    const declared = at("answer", 0);
    expect(target).toEqual({
      uri,
      range: {
        start: { line: declared.line, character: declared.character - 1 },
        end: { line: declared.line, character: declared.character - 1 + "answer".length },
      },
    });
  });
});
