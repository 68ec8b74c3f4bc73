/**
 * A span of a loaded spec as an LSP location: in the spec, its catalog or one of its prompt files
 * (each has its own offsets past the spec's: document.ts), as a URI and a 0-based range.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Location } from "vscode-languageserver/node";
import type { SpecDocument } from "../spec/document.js";
import type { Span } from "../spec/source-map.js";

export function siteLocation(doc: SpecDocument, span: Span): Location {
  const prompt = doc.prompts?.find((p) => span[0] >= p.base && span[0] <= p.base + p.text.length);
  const catalog = doc.catalog && span[0] >= doc.catalog.base ? doc.catalog : undefined;
  const [path, map, shift] = prompt
    ? [prompt.abs, prompt.map, prompt.base]
    : catalog
      ? [catalog.doc.path, catalog.doc.map, catalog.base]
      : [doc.path, doc.map, 0];
  const at = map.locate([span[0] - shift, span[1] - shift]);
  return {
    uri: pathToFileURL(resolve(path)).href,
    range: {
      start: { line: at.line - 1, character: at.column - 1 },
      end: { line: at.endLine - 1, character: at.endColumn - 1 },
    },
  };
}
