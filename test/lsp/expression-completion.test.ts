/**
 * `graphspec lsp`'s completion inside expressions, on the example graphs of graphs/ through a
 * real LSP client over the built CLI's stdio: the fields after `state.`, `output.`, `item.`,
 * `context.` and below them come from the declared types — a channel's object properties, a
 * list's element, an llm node's `output.schema` (or the AI message without one), a map edge's
 * `over` element; and the catalog's tools and models where a node names them.
 * Run `npm run build` first.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CompletionItem,
  CompletionRequest,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
} from "vscode-languageserver-protocol/node";
import { type LspSession, startLsp } from "./lsp-client.js";

const ROOT = join(import.meta.dirname, "..", "..");
let lsp: LspSession;
const versions = new Map<string, number>();

beforeAll(async () => {
  lsp = await startLsp(ROOT);
});
afterAll(() => {
  lsp?.child.kill();
});

/**
 * Opens graphs/`name` with `edit` applied to its text (or changes it, when open), waits for its
 * check, and returns what completes right after the `nth` occurrence of `after` in that text.
 */
async function completeIn(
  name: string,
  after: string,
  edit: (text: string) => string = (t) => t,
  nth = 0,
): Promise<CompletionItem[]> {
  const file = join(ROOT, "graphs", name);
  const uri = pathToFileURL(file).href;
  const text = edit(readFileSync(file, "utf8"));
  const checked = lsp.nextPublished(uri);
  const version = (versions.get(uri) ?? 0) + 1;
  versions.set(uri, version);
  if (version === 1)
    await lsp.client.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: "yaml", version, text },
    });
  else
    await lsp.client.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });
  await checked;
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(after, at + 1);
    if (at < 0) throw new Error(`${name} has no ${nth + 1}th \`${after}\``);
  }
  const lines = text.slice(0, at + after.length).split("\n");
  const got = await lsp.client.sendRequest(CompletionRequest.type, {
    textDocument: { uri },
    position: { line: lines.length - 1, character: lines.at(-1)!.length },
  });
  return Array.isArray(got) ? got : (got?.items ?? []);
}
const labels = (items: CompletionItem[]) => items.map((i) => i.label).sort();

describe("graphspec lsp: completion inside expressions, on graphs/", () => {
  it("`output.` in an llm node's write: its output.schema's fields, typed", async () => {
    const items = await completeIn("reflection.yaml", 'scores: "${{ output.');
    expect(labels(items)).toEqual(["issues", "score", "verdict"]);
    expect(items.find((i) => i.label === "score")?.detail).toBe("int");
    expect(items.find((i) => i.label === "issues")?.detail).toBe("list<string>");
  });

  it("`output.` of an llm node without a schema: the AI message's fields", async () => {
    const items = await completeIn("reflection.yaml", 'draft: "${{ output.');
    expect(labels(items)).toEqual(expect.arrayContaining(["text", "content", "tool_calls"]));
    expect(labels(items)).not.toContain("score");
  });

  it("`state.` then an object channel's properties, and a list channel's element's", async () => {
    expect(labels(await completeIn("research-digest.yaml", "state."))).toEqual(
      expect.arrayContaining(["topic", "documents", "document", "summaries"]),
    );
    expect(labels(await completeIn("research-digest.yaml", "'id': state.document."))).toEqual([
      "id",
      "text",
      "title",
    ]);
    const element = await completeIn("research-digest.yaml", "state.documents[0].", (t) =>
      t.replace("map: { over: state.documents,", "map: { over: state.documents[0].x,"),
    );
    expect(labels(element)).toEqual(["id", "text", "title"]);
  });

  it("`item.` in a map edge's `with`: the fields of the `over` list's element", async () => {
    const items = await completeIn("research-digest.yaml", '"${{ item.', (t) =>
      t.replace('document: "${{ item }}"', 'document: "${{ item. }}"'),
    );
    expect(labels(items)).toEqual(["id", "text", "title"]);
  });

  it("`output.` in a structured triage node; nothing where `output` is not in scope", async () => {
    expect(labels(await completeIn("support-triage.yaml", 'priority: "${{ output.'))).toEqual(
      expect.arrayContaining(["priority", "reason"]),
    );
    // A prompt is rendered before the answer: `output` is the node's only in its `write`.
    const inPrompt = await completeIn("reflection.yaml", "Draft:\n      ${{ output.", (t) =>
      t.replace("${{ state.draft }}", "${{ output. }}"),
    );
    expect(inPrompt).toEqual([]);
  });

  it("a node's tools and model from the project catalog", async () => {
    const tools = await completeIn("helpdesk.yaml", "tools: [");
    expect(labels(tools)).toEqual(expect.arrayContaining(["lookup_ticket", "notify_customer"]));
    const model = await completeIn("helpdesk.yaml", "model: ", (t) =>
      t.replace("    max_steps: 8", "    max_steps: 8\n    model: "),
    );
    expect(labels(model)).toEqual(expect.arrayContaining(["default", "large", "claude"]));
  });

  it("items of block lists: tools under `tools:`, nodes under `to:`", async () => {
    const tools = await completeIn(
      "helpdesk.yaml",
      "      - ",
      (t) =>
        t.replace(
          "tools: [lookup_ticket, notify_customer]",
          "tools:\n      - lookup_ticket\n      - ",
        ),
      1,
    );
    expect(labels(tools)).toEqual(expect.arrayContaining(["lookup_ticket", "notify_customer"]));
    const nodes = await completeIn("helpdesk.yaml", "      - ", (t) =>
      t.replace("  - { from: helpdesk, to: END }", "  - from: helpdesk\n    to:\n      - "),
    );
    expect(labels(nodes)).toEqual(["END", "helpdesk"]);
  });
});
