import { type Document, visit } from "yaml";
import type { Span } from "./source-map.js";

export interface UnresolvedAlias {
  name: string;
  span: Span;
  /** The anchors the document does define, for a did-you-mean. */
  anchors: string[];
}

/** Aliases (`*name`) with no anchor (`&name`) before them; the YAML library only throws on the first. */
export function findUnresolvedAliases(doc: Document): UnresolvedAlias[] {
  const anchors: string[] = [];
  const found: UnresolvedAlias[] = [];
  visit(doc, {
    Node(_key, node) {
      if ("anchor" in node && typeof node.anchor === "string") anchors.push(node.anchor);
    },
    Alias(_key, alias) {
      // Anchors are collected in document order, so `anchors` holds those defined before here.
      if (!anchors.includes(alias.source) && alias.range) {
        found.push({
          name: alias.source,
          span: [alias.range[0], alias.range[1]],
          anchors: [...anchors],
        });
      }
    },
  });
  return found;
}
