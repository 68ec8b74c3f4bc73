/**
 * The LSP tests' reading of the example specs in graphs/, independent of the server: which files
 * are specs (not fixtures), and the keys of a top-level mapping with their offsets.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { isMap, isPair, isScalar, parseDocument } from "yaml";

/** The specs of a copy of graphs/ (its `supervisor/` children included), fixtures left out. */
export const exampleSpecs = (graphs: string): string[] => [
  ...readdirSync(graphs)
    .filter((f) => f.endsWith(".yaml") && !f.endsWith(".test.yaml"))
    .map((f) => join(graphs, f)),
  ...readdirSync(join(graphs, "supervisor")).map((f) => join(graphs, "supervisor", f)),
];

export interface Named {
  name: string;
  /** Offsets of the name's key under the section ([start, end)). */
  key: [number, number];
}

/** The keys of a top-level mapping (`nodes`, `state`, …) with their offsets. */
export function keysOf(text: string, section: string): Named[] {
  const map = parseDocument(text).get(section, true);
  if (!isMap(map)) return [];
  return map.items.flatMap((p) =>
    isPair(p) && isScalar(p.key) && p.key.range
      ? [{ name: String(p.key.value), key: [p.key.range[0], p.key.range[1]] as [number, number] }]
      : [],
  );
}
