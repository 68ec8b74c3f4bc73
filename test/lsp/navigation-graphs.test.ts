/**
 * `graphspec lsp`'s find references and rename on every spec in graphs/, through a real LSP client
 * over the built CLI's stdio. For each spec: the references of every node and every channel,
 * asked from its declaration, cover what an independent reading of the YAML finds (every edge
 * naming the node; every `state.X` in the text), name exactly the symbol, include the declaration
 * only when asked, and are the same asked from any of them; then a rename of the most referenced
 * node and channel is applied as the editor would (to every file it edits: a channel may be named
 * in a subgraph's parent) and every spec re-checked through the server's own diagnostics: no
 * finding the originals did not have. The specs are a copy of graphs/ (with tools/ and the lock)
 * in a temporary project, so that renamed files can be saved. Run `npm run build` first.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  type Location,
  PrepareRenameRequest,
  ReferencesRequest,
  RenameRequest,
} from "vscode-languageserver-protocol/node";
import { isMap, isPair, isScalar, isSeq, type Node, parseDocument } from "yaml";
import { type LspSession, startLsp } from "./lsp-client.js";
import { applyEdits, positionOf, textIn } from "./lsp-edits.js";

const REPO = join(import.meta.dirname, "..", "..");
const ROOT = mkdtempSync(join(tmpdir(), "graphspec-lsp-graphs-"));
for (const part of ["graphs", "tools", "graphspec.lock.json", "package.json"])
  cpSync(join(REPO, part), join(ROOT, part), { recursive: true });
const GRAPHS = join(ROOT, "graphs");
const specs = [
  ...readdirSync(GRAPHS)
    .filter((f) => f.endsWith(".yaml") && !f.endsWith(".test.yaml"))
    .map((f) => join(GRAPHS, f)),
  ...readdirSync(join(GRAPHS, "supervisor")).map((f) => join(GRAPHS, "supervisor", f)),
];

let lsp: LspSession;
beforeAll(async () => {
  lsp = await startLsp(ROOT);
});
afterAll(() => {
  lsp?.child.kill();
  rmSync(ROOT, { recursive: true, force: true });
});

interface Named {
  name: string;
  /** Offsets of the name's key under `nodes:` / `state:`. */
  key: [number, number];
}

/** The keys of a top-level mapping, with their offsets, read with the yaml package. */
function keysOf(text: string, section: string): Named[] {
  const doc = parseDocument(text);
  const map = doc.get(section, true);
  if (!isMap(map)) return [];
  return map.items.flatMap((p) =>
    isPair(p) && isScalar(p.key) && p.key.range
      ? [{ name: String(p.key.value), key: [p.key.range[0], p.key.range[1]] as [number, number] }]
      : [],
  );
}

/** Every scalar naming node `name` where the language names nodes, read with the yaml package. */
function nodeMentions(text: string, name: string): number {
  const doc = parseDocument(text);
  let count = 0;
  const visit = (n: unknown, path: string[]) => {
    if (isScalar(n)) {
      const at = path.join(".");
      const named =
        /^edges\.\d+\.(from|to)(\.\d+)?$/.test(at) ||
        /^edges\.\d+\.route\.\d+\.(to|default)$/.test(at) ||
        /^edges\.\d+\.router\.to\.\d+$/.test(at) ||
        /^edges\.\d+\.map\.to$/.test(at) ||
        /^nodes\.[^.]+\.on_error\.goto$/.test(at) ||
        /^interrupts\.(before|after)\.\d+$/.test(at);
      if (named && n.value === name) count++;
    } else if (isMap(n)) {
      for (const p of n.items)
        if (isPair(p) && isScalar(p.key)) visit(p.value, [...path, String(p.key.value)]);
    } else if (isSeq(n))
      for (const [i, item] of n.items.entries()) visit(item as Node, [...path, String(i)]);
  };
  visit(doc.contents, []);
  return count;
}

let version = 1;
/** Sets the open document's text and waits for its diagnostics. */
async function show(uri: string, text: string, open = false) {
  const published = lsp.nextPublished(uri);
  if (open)
    await lsp.client.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: "yaml", version: ++version, text },
    });
  else
    await lsp.client.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: ++version },
      contentChanges: [{ text }],
    });
  return published;
}

const references = (uri: string, text: string, offset: number, includeDeclaration: boolean) =>
  lsp.client.sendRequest(ReferencesRequest.type, {
    textDocument: { uri },
    position: positionOf(text, offset),
    context: { includeDeclaration },
  }) as Promise<Location[] | null>;

const sorted = (locations: Location[]) =>
  locations
    .map(
      (l) =>
        `${l.uri}@${l.range.start.line}:${l.range.start.character}-${l.range.end.line}:${l.range.end.character}`,
    )
    .sort();

/** The text a location covers, in the file as it is on disk (as it is open, between renames). */
const textAt = (l: Location) => textIn(readFileSync(new URL(l.uri), "utf8"), l.range);

const rangeOf = (text: string, [start, end]: [number, number]) => ({
  start: positionOf(text, start),
  end: positionOf(text, end),
});
/** Whether a location is the key that declares a node or a channel in its file. */
const declares = (l: Location) => {
  const text = readFileSync(new URL(l.uri), "utf8");
  const keys = [...keysOf(text, "nodes"), ...keysOf(text, "state")];
  return sorted(keys.map((k) => ({ uri: l.uri, range: rangeOf(text, k.key) }))).includes(
    sorted([l])[0]!,
  );
};

/** Every spec's findings' rules, as the server publishes them for the text on disk. */
const uriOfSpec = (path: string) => pathToFileURL(path).href;
async function allRules(): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const path of specs)
    out.set(
      path,
      (await show(uriOfSpec(path), readFileSync(path, "utf8"))).map((d) => String(d.code)).sort(),
    );
  return out;
}
let original: Map<string, string[]>;
beforeAll(async () => {
  for (const path of specs) await show(uriOfSpec(path), readFileSync(path, "utf8"), true);
  original = await allRules();
});

describe.each(specs.map((s) => [s.slice(GRAPHS.length + 1), s]))(
  "graphspec lsp: references and rename in graphs/%s",
  (_, path) => {
    const uri = pathToFileURL(path).href;
    const text = readFileSync(path, "utf8");

    it("every node's references: its declaration and every edge, route, goto and interrupt naming it", async () => {
      for (const node of keysOf(text, "nodes")) {
        const all = (await references(uri, text, node.key[0], true)) ?? [];
        expect(
          all.map(textAt).every((t) => t === node.name),
          node.name,
        ).toBe(true);
        expect(all.length, node.name).toBe(1 + nodeMentions(text, node.name));
        const declaration = sorted(all).filter((l) =>
          l.includes(`@${positionOf(text, node.key[0]).line}:`),
        );
        expect(declaration, node.name).toHaveLength(1);
        const without = (await references(uri, text, node.key[0], false)) ?? [];
        expect(sorted(without)).toEqual(sorted(all.filter((l) => !declares(l))));
        // Asked from any other occurrence, the same set.
        const other = all.find((l) => l.range.start.line !== positionOf(text, node.key[0]).line);
        if (other) {
          const fromThere = await lsp.client.sendRequest(ReferencesRequest.type, {
            textDocument: { uri: other.uri },
            position: other.range.start,
            context: { includeDeclaration: true },
          });
          expect(sorted(fromThere ?? [])).toEqual(sorted(all));
        }
      }
    });

    it("every channel's references: its declaration, writes and every `state.X` read", async () => {
      for (const channel of keysOf(text, "state")) {
        const all = (await references(uri, text, channel.key[0], true)) ?? [];
        expect(
          all.map(textAt).every((t) => t === channel.name),
          channel.name,
        ).toBe(true);
        const here = new Set(sorted(all.filter((l) => l.uri === uri)));
        for (const m of text.matchAll(new RegExp(`\\bstate\\.${channel.name}\\b`, "g"))) {
          const start = positionOf(text, m.index + "state.".length);
          const end = positionOf(text, m.index + m[0].length);
          expect(here, `${channel.name} at line ${start.line + 1}`).toContain(
            `${uri}@${start.line}:${start.character}-${end.line}:${end.character}`,
          );
        }
        const without = (await references(uri, text, channel.key[0], false)) ?? [];
        expect(sorted(without)).toEqual(sorted(all.filter((l) => !declares(l))));
        for (const from of all.filter((l) => l.uri === uri)) {
          const again = await lsp.client.sendRequest(ReferencesRequest.type, {
            textDocument: { uri },
            position: from.range.start,
            context: { includeDeclaration: true },
          });
          expect(
            sorted(again ?? []),
            `${channel.name} from line ${from.range.start.line + 1}`,
          ).toEqual(sorted(all));
        }
      }
    });

    for (const section of ["nodes", "state"] as const) {
      it(`renaming its most named ${section === "nodes" ? "node" : "channel"} leaves no new finding`, async () => {
        let best: { named: Named; count: number } | undefined;
        for (const named of keysOf(text, section)) {
          const renamable = await lsp.client
            .sendRequest(PrepareRenameRequest.type, {
              textDocument: { uri },
              position: positionOf(text, named.key[0]),
            })
            .then(
              () => true,
              (e: Error) => {
                // Only `messages`, which llm, agent and tools nodes use by that name, is refused.
                expect([named.name, e.message]).toEqual([
                  "messages",
                  expect.stringContaining("by that name"),
                ]);
                return false;
              },
            );
          if (!renamable) continue;
          const count = (await references(uri, text, named.key[0], true))?.length ?? 0;
          if (!best || count > best.count) best = { named, count };
        }
        if (!best) return;
        const { named, count } = best;
        const position = positionOf(text, named.key[0]);
        const prepared = await lsp.client.sendRequest(PrepareRenameRequest.type, {
          textDocument: { uri },
          position,
        });
        expect(prepared).toMatchObject({ placeholder: named.name });
        const to = `${named.name}_2`;
        const edit = await lsp.client.sendRequest(RenameRequest.type, {
          textDocument: { uri },
          position,
          newName: to,
        });
        const changes = edit?.changes ?? {};
        expect(Object.values(changes).flat()).toHaveLength(count);
        expect(Object.keys(changes)).toContain(uri);
        // Applied as an editor does, every edited file saved; then every spec re-checked.
        const saved = new Map<string, string>();
        for (const [edited, edits] of Object.entries(changes)) {
          const file = new URL(edited);
          const old = readFileSync(file, "utf8");
          saved.set(edited, old);
          writeFileSync(file, applyEdits(old, edits));
        }
        try {
          const renamed = readFileSync(path, "utf8");
          expect(keysOf(renamed, section).map((k) => k.name)).toContain(to);
          expect(keysOf(renamed, section).map((k) => k.name)).not.toContain(named.name);
          const after = await allRules();
          for (const [spec, rules] of after) {
            const was = original.get(spec)!;
            // No new finding: each rule at most as often as before the rename.
            for (const rule of new Set(rules))
              expect(
                rules.filter((r) => r === rule).length,
                `${rule} in ${spec} after renaming ${named.name} in ${path}`,
              ).toBeLessThanOrEqual(was.filter((r) => r === rule).length);
          }
        } finally {
          for (const [edited, old] of saved) writeFileSync(new URL(edited), old);
          await allRules();
        }
      });
    }
  },
);
