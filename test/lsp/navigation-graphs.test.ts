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

import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
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
import { exampleSpecs, keysOf, type Named } from "./example-specs.js";
import { type LspSession, startLsp } from "./lsp-client.js";
import { applyEdits, positionOf, textIn } from "./lsp-edits.js";

const REPO = join(import.meta.dirname, "..", "..");
const ROOT = mkdtempSync(join(tmpdir(), "graphspec-lsp-graphs-"));
for (const part of ["graphs", "tools", "graphspec.lock.json", "package.json"])
  cpSync(join(REPO, part), join(ROOT, part), { recursive: true });
const GRAPHS = join(ROOT, "graphs");
const specs = exampleSpecs(GRAPHS);

let lsp: LspSession;
beforeAll(async () => {
  lsp = await startLsp(ROOT);
});
afterAll(() => {
  lsp?.child.kill();
  rmSync(ROOT, { recursive: true, force: true });
});

/** Where a spec names nodes (data paths joined with `.`). */
const SPEC_NODE_PLACES = [
  /^edges\.\d+\.(from|to)(\.\d+)?$/,
  /^edges\.\d+\.route\.\d+\.(to|default)$/,
  /^edges\.\d+\.router\.to\.\d+$/,
  /^edges\.\d+\.map\.to$/,
  /^nodes\.[^.]+\.on_error\.goto$/,
  /^interrupts\.(before|after)\.\d+$/,
];
/** Where a `graphspec test` fixture names its spec's nodes. */
const FIXTURE_NODE_PLACES = [
  /^tests\.\d+(\.then\.\d+)?\.interrupt_(before|after)\.\d+$/,
  /^tests\.\d+(\.then\.\d+)?\.expect\.(path|next)\.\d+$/,
  /^tests\.\d+(\.then\.\d+)?\.expect\.interrupts\.\d+\.node$/,
  /^tests\.\d+(\.then\.\d+)?\.expect\.error\.node$/,
];

/** Every scalar naming node `name` at `places`, read with the yaml package. */
function nodeMentions(text: string, name: string, places = SPEC_NODE_PLACES): number {
  const doc = parseDocument(text);
  let count = 0;
  const visit = (n: unknown, path: string[]) => {
    if (isScalar(n)) {
      const at = path.join(".");
      if (places.some((p) => p.test(at)) && n.value === name) count++;
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

/** The node or channel of a spec named in most places that may be renamed, and that count. */
async function mostNamed(
  uri: string,
  text: string,
  section: "nodes" | "state",
  skip: (name: string) => boolean = () => false,
) {
  let best: { named: Named; count: number } | undefined;
  for (const named of keysOf(text, section)) {
    if (skip(named.name)) continue;
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
  return best;
}

describe.each(specs.map((s) => [s.slice(GRAPHS.length + 1), s]))(
  "graphspec lsp: references and rename in graphs/%s",
  (_, path) => {
    const uri = pathToFileURL(path).href;
    const text = readFileSync(path, "utf8");

    it("every node's references: its declaration, every edge, route, goto and interrupt naming it, and its test fixture's", async () => {
      for (const node of keysOf(text, "nodes")) {
        const all = (await references(uri, text, node.key[0], true)) ?? [];
        expect(
          all.map(textAt).every((t) => t === node.name),
          node.name,
        ).toBe(true);
        // Its test fixture, beside it, names it too.
        const fixture = path.replace(/\.yaml$/, ".test.yaml");
        const inFixture = existsSync(fixture)
          ? nodeMentions(readFileSync(fixture, "utf8"), node.name, FIXTURE_NODE_PLACES)
          : 0;
        expect(all.length, node.name).toBe(1 + nodeMentions(text, node.name) + inFixture);
        const declaration = sorted(all).filter((l) =>
          l.startsWith(`${uri}@${positionOf(text, node.key[0]).line}:`),
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
        const best = await mostNamed(uri, text, section);
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

/** The strings inside the outputs the fixture of the spec at `path` expects. */
function expectedValues(path: string): string[] {
  const fixture = path.replace(/\.yaml$/, ".test.yaml");
  if (!existsSync(fixture)) return [];
  const out: string[] = [];
  const visit = (n: unknown, at: string[]) => {
    const inOutput = /^tests\.\d+(\.then\.\d+)?\.expect\.output\./.test(`${at.join(".")}.`);
    if (isScalar(n)) {
      if (inOutput && typeof n.value === "string") out.push(n.value);
    } else if (isMap(n)) {
      for (const p of n.items)
        if (isPair(p) && isScalar(p.key)) visit(p.value, [...at, String(p.key.value)]);
    } else if (isSeq(n))
      for (const [i, item] of n.items.entries()) visit(item as Node, [...at, String(i)]);
  };
  visit(parseDocument(readFileSync(fixture, "utf8")).contents, []);
  return out;
}

describe("graphspec lsp: renames across graphs/ and `graphspec test`", () => {
  it("with the most named node and channel of every spec renamed, every fixture still passes", async () => {
    for (const path of specs) {
      const uri = uriOfSpec(path);
      for (const section of ["nodes", "state"] as const) {
        const text = readFileSync(path, "utf8");
        // A name inside the values a fixture expects (an error's `node`, its message) is data
        // the run produces, not a reference: no rename changes it, so such names are left alone.
        const best = await mostNamed(uri, text, section, (name) =>
          expectedValues(path).some((v) => new RegExp(`\\b${name}\\b`).test(v)),
        );
        if (!best) continue;
        const edit = await lsp.client.sendRequest(RenameRequest.type, {
          textDocument: { uri },
          position: positionOf(text, best.named.key[0]),
          newName: `${best.named.name}_3`,
        });
        for (const [edited, edits] of Object.entries(edit?.changes ?? {})) {
          const file = new URL(edited);
          writeFileSync(file, applyEdits(readFileSync(file, "utf8"), edits));
          // The specs are open in the server: it is told of the saved text, as an editor would.
          if (specs.some((s) => uriOfSpec(s) === edited))
            await show(edited, readFileSync(file, "utf8"));
        }
      }
    }
    // The tools' modules import LangChain: the copy finds it where the repository has it.
    symlinkSync(join(REPO, "node_modules"), join(ROOT, "node_modules"));
    const run = spawnSync(process.execPath, [join(REPO, "bin", "graphspec.js"), "test", "graphs"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 240_000,
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/tests: \d+ passed, 0 failed/);
  }, 300_000);
});
