/**
 * Find references and rename (with prepareRename) of a spec's nodes, channels and tools, from any
 * place one is named (name-sites.ts). The cursor's name is looked up in the parse of the text
 * the editor holds now — a text that does not parse cannot be renamed in (what it names is not
 * known for sure). Other specs a rename reaches (a subgraph's child) are read from the editor
 * when open there, from disk otherwise.
 */
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  type Connection,
  LSPErrorCodes,
  type Position,
  ResponseError,
  type TextDocuments,
  type TextEdit,
  type WorkspaceEdit,
} from "vscode-languageserver/node";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { SpecDocument } from "../spec/document.js";
import { readSpec, readSpecText } from "../spec/load.js";
import { notASpec } from "../spec/not-a-spec.js";
import { allSites, type LoadSpec, type NameSite, occurrenceAt } from "./name-sites.js";
import { fixedNameProblem, renameProblem } from "./rename-check.js";
import { siteLocation } from "./site-location.js";

/** Why a channel cannot be renamed in one of the specs its sites are in. */
const fixedNames = (sites: readonly NameSite[], name: string) =>
  [...new Set(sites.map((s) => s.doc))].map((d) => fixedNameProblem(d, name)).find(Boolean);

const refuse = (message: string) => new ResponseError(LSPErrorCodes.RequestFailed, message);

export function registerNavigation(
  connection: Connection,
  documents: TextDocuments<TextDocument>,
  /** The document's last parse, when the check made one (reused if the text is the same). */
  checked: (uri: string) => SpecDocument | undefined,
) {
  // Each open document's parse, by version: a rename right after a keystroke sees that keystroke.
  const parsed = new Map<string, { version: number; doc: SpecDocument }>();
  documents.onDidClose((e) => parsed.delete(e.document.uri));

  /** The parse of an open document; a file that is not a spec is undefined, unless `anyYaml`. */
  const parse = async (td: TextDocument, anyYaml = false): Promise<SpecDocument | undefined> => {
    const kept = parsed.get(td.uri);
    let doc = kept?.version === td.version ? kept.doc : undefined;
    if (!doc) {
      const text = td.getText();
      const last = checked(td.uri);
      doc = last?.text === text ? last : await readSpecText(fileURLToPath(td.uri), text, {});
      parsed.set(td.uri, { version: td.version, doc });
    }
    if (typeof doc.data !== "object" || doc.data === null) return undefined;
    return anyYaml || !notASpec(doc) ? doc : undefined;
  };
  const load: LoadSpec = async (abs, anyYaml) => {
    const open = documents.get(pathToFileURL(abs).href);
    if (open) return parse(open, anyYaml);
    try {
      const doc = await readSpec(abs);
      if (typeof doc.data !== "object" || doc.data === null) return undefined;
      return anyYaml || !notASpec(doc) ? doc : undefined;
    } catch {
      return undefined;
    }
  };
  /** The spec and the occurrence under the cursor. */
  const under = async (uri: string, position: Position) => {
    const td = documents.get(uri);
    if (!td || !uri.startsWith("file:")) return undefined;
    const doc = await parse(td);
    if (!doc) return undefined;
    const occurrence = occurrenceAt(doc, td.offsetAt(position));
    return occurrence && { doc, occurrence };
  };

  connection.onReferences(async ({ textDocument, position, context }) => {
    const found = await under(textDocument.uri, position);
    if (!found) return null;
    const all = await allSites(found.doc, found.occurrence, load);
    if (!all) return null;
    return all.sites
      .filter((s) => context.includeDeclaration || !s.occurrence.declaration)
      .map((s) => siteLocation(s.doc, s.occurrence.span));
  });

  connection.onPrepareRename(async ({ textDocument, position }) => {
    const found = await under(textDocument.uri, position);
    if (!found) return null;
    const { occurrence } = found;
    if (occurrence.section === "tools")
      throw refuse(
        `tool \`${occurrence.name}\` is named by its module's export or its catalog: rename nodes and channels here`,
      );
    if (occurrence.section === "state") {
      const all = await allSites(found.doc, occurrence, load);
      const fixed = all && fixedNames(all.sites, occurrence.name);
      if (fixed) throw refuse(fixed);
    }
    return {
      range: siteLocation(found.doc, occurrence.span).range,
      placeholder: occurrence.name,
    };
  });

  connection.onRenameRequest(async ({ textDocument, position, newName }) => {
    const found = await under(textDocument.uri, position);
    if (!found) {
      const td = documents.get(textDocument.uri);
      if (td && !(await parse(td)))
        throw refuse("this file does not parse as a spec: fix it before renaming");
      throw refuse("no node or channel here to rename");
    }
    if (found.occurrence.section === "tools")
      throw refuse(
        `rename nodes and channels; tool \`${found.occurrence.name}\` is named by its module or catalog`,
      );
    const all = await allSites(found.doc, found.occurrence, load);
    if (!all) throw refuse(`the subgraph node \`${found.occurrence.mount}\`'s spec cannot be read`);
    if (newName === all.target.name) return { changes: {} };
    // The specs whose own node or channel is renamed (not those that only name a child's).
    const files = new Map(
      all.sites.filter((s) => s.occurrence.declaration).map((s) => [resolve(s.doc.path), s.doc]),
    );
    files.set(resolve(all.target.doc.path), all.target.doc);
    const problem =
      (all.target.section === "state" && fixedNames(all.sites, all.target.name)) ||
      renameProblem(all.target.section, newName, [...files.values()]);
    if (problem) throw refuse(problem);
    const changes: Record<string, TextEdit[]> = {};
    for (const s of all.sites) {
      const { uri, range } = siteLocation(s.doc, s.occurrence.span);
      const edits = changes[uri] ?? [];
      edits.push({ range, newText: newName });
      changes[uri] = edits;
    }
    return { changes } satisfies WorkspaceEdit;
  });
}
