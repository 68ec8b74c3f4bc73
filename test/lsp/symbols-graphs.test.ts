/**
 * `graphspec lsp`'s diagnostics, hover and go to definition on every spec in graphs/, through a
 * real LSP client over the built CLI's stdio (issue 29: every feature on every graph). For each
 * spec: the diagnostics published for its text are `graphspec validate --format json`'s; every
 * node an edge names hovers as that node's kind and goes to its key under `nodes:`; every channel
 * declared under `state:` hovers, at its key, with its type; completion where an edge names a node
 * offers every node. Names and places are read
 * independently of the server, with the yaml package. Run `npm run build` first.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CompletionRequest,
  DefinitionRequest,
  DidOpenTextDocumentNotification,
  HoverRequest,
} from "vscode-languageserver-protocol/node";
import { isMap, isScalar, isSeq, parseDocument } from "yaml";
import { exampleSpecs, keysOf } from "./example-specs.js";
import { type LspSession, startLsp } from "./lsp-client.js";
import { positionOf } from "./lsp-edits.js";

const REPO = join(import.meta.dirname, "..", "..");
const GRAPHS = join(REPO, "graphs");
const BIN = join(REPO, "bin", "graphspec.js");
const specs = exampleSpecs(GRAPHS);

let lsp: LspSession;
beforeAll(async () => {
  lsp = await startLsp(REPO);
});
afterAll(() => lsp?.child.kill());

type Range = [number, number];

/** Every node name an edge's `from`/`to` (or a route's `to`) gives, with its offsets. */
function edgeMentions(text: string): { name: string; at: Range }[] {
  const edges = parseDocument(text).get("edges", true);
  const found: { name: string; at: Range }[] = [];
  const take = (n: unknown) => {
    if (isScalar(n) && typeof n.value === "string" && n.range && !/^(START|END)$/.test(n.value))
      found.push({ name: n.value, at: [n.range[0], n.range[1]] });
    if (isSeq(n)) for (const item of n.items) take(item);
  };
  if (!isSeq(edges)) return found;
  for (const edge of edges.items) {
    if (!isMap(edge)) continue;
    take(edge.get("from", true));
    take(edge.get("to", true));
    const route = edge.get("route", true);
    if (isSeq(route)) for (const c of route.items) if (isMap(c)) take(c.get("to", true));
  }
  return found;
}

/** A position inside a range (its second character: a quote or the name's first letter is fine). */
const inside = (text: string, [start, end]: Range) =>
  positionOf(text, Math.min(start + 1, end - 1));

const hoverText = async (uri: string, text: string, at: Range) =>
  JSON.stringify(
    (
      await lsp.client.sendRequest(HoverRequest.type, {
        textDocument: { uri },
        position: inside(text, at),
      })
    )?.contents ?? null,
  );

describe.each(specs.map((path) => [path.slice(GRAPHS.length + 1), path]))("%s", (_name, path) => {
  const text = readFileSync(path, "utf8");
  const uri = pathToFileURL(path).href;

  it("publishes validate's findings for its text", async () => {
    const published = lsp.nextPublished(uri);
    await lsp.client.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: "yaml", version: 1, text },
    });
    const cli = spawnSync(process.execPath, [BIN, "validate", "--format", "json", path], {
      cwd: REPO,
      encoding: "utf8",
    });
    // The spec's own findings (a prompt file's are published in that file).
    const findings = (JSON.parse(cli.stdout) as { file: string; rule: string }[]).filter(
      (f) => join(REPO, f.file) === path,
    );
    const mine = (await published).map((d) => d.code);
    expect(mine).toEqual(findings.map((f) => f.rule));
  });

  it("every node an edge names hovers as its kind and goes to its key under nodes:", async () => {
    const nodes = new Map(keysOf(text, "nodes").map((k) => [k.name, k.key]));
    const kinds = parseDocument(text).toJS()?.nodes ?? {};
    const mentions = edgeMentions(text).filter((m) => nodes.has(m.name));
    expect(mentions.length).toBeGreaterThan(0);
    for (const m of mentions) {
      expect(await hoverText(uri, text, m.at), `hover on ${m.name}`).toContain(
        `${kinds[m.name].kind} node`,
      );
      const target = await lsp.client.sendRequest(DefinitionRequest.type, {
        textDocument: { uri },
        position: inside(text, m.at),
      });
      const [start, end] = nodes.get(m.name)!;
      expect(target, `definition of ${m.name}`).toEqual({
        uri,
        range: { start: positionOf(text, start), end: positionOf(text, end) },
      });
    }
  });

  it("completion where an edge names a node offers every node of the spec", async () => {
    const nodes = keysOf(text, "nodes").map((k) => k.name);
    for (const m of edgeMentions(text)) {
      const got = await lsp.client.sendRequest(CompletionRequest.type, {
        textDocument: { uri },
        position: positionOf(text, m.at[0]),
      });
      const labels = (Array.isArray(got) ? got : (got?.items ?? [])).map((i) => i.label);
      expect(labels, `completion at ${m.name}`).toEqual(expect.arrayContaining(nodes));
    }
  });

  it("every channel hovers, at its key under state:, with its name and type", async () => {
    const state = parseDocument(text).toJS()?.state ?? {};
    for (const k of keysOf(text, "state")) {
      const shown = await hoverText(uri, text, k.key);
      expect(shown, `hover on ${k.name}`).toContain("state channel");
      expect(shown).toContain(k.name);
      expect(shown).toContain(String(state[k.name].type));
    }
  });
});
