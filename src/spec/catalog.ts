/**
 * A project's catalog of tools and models: one file (`catalog: ../catalog.yaml` in a spec) holding
 * `tools:` and `models:` in a spec's shape. A spec takes the catalog's entries as if written
 * inline (its own entry of the same name wins), so validate, compile and run need nothing else —
 * except to report a catalog entry's findings in the catalog file (the source map's graft,
 * document.ts) and to resolve its module paths from the catalog's folder (`catalogOf`).
 */
import { dirname, join, resolve } from "node:path";
import { isObject } from "./data.js";
import { diagnosticAtPath, type SpecDocument } from "./document.js";
import { escapeSegment } from "./source-map.js";

/** What a catalog may hold. */
export const CATALOG_KEYS = new Set(["$schema", "tools", "models"]);
const KINDS = ["tools", "models"] as const;

/** The catalog file (absolute) each entry a spec took from one came from. */
const origins = new WeakMap<object, string>();

/** The catalog file a spec's tool or model entry came from; undefined for the spec's own. */
export const catalogOf = (entry: object): string | undefined => origins.get(entry);

type ReadFile = (abs: string, file: string) => Promise<SpecDocument>;

/**
 * Reads the catalog `doc` names and merges its entries into `doc.data`, recording it in
 * `doc.catalog`. Problems (an unreadable or escaping file, a key a catalog does not hold, the
 * file's own syntax) go to `doc.problems`, positioned in the file they are in.
 */
export async function attachCatalog(doc: SpecDocument, read: ReadFile): Promise<void> {
  const data = doc.data;
  if (!isObject(data) || typeof data.catalog !== "string" || !data.catalog) return;
  const ref = data.catalog;
  const abs = resolve(dirname(doc.path), ref);
  const file = join(dirname(doc.file), ref).split("\\").join("/");
  takeCatalog(doc, await read(abs, file), ref);
}

/**
 * Whether the document is a catalog rather than a spec: a mapping whose keys are only `tools`,
 * `models` (at least one of them) and `$schema`. Such a file cannot be a spec (a spec needs
 * `version`, `name`, `state`, …), so `graphspec validate` checks it as the catalog it is.
 */
export function isCatalog(doc: SpecDocument): boolean {
  const data = doc.data;
  if (!isObject(data)) return false;
  const keys = Object.keys(data);
  return keys.some((k) => k !== "$schema") && keys.every((k) => CATALOG_KEYS.has(k));
}

/**
 * Merges the loaded `catalog` (named `ref` by `doc`) into `doc`: its entries into `doc.data`, its
 * source map grafted onto the spec's, `doc.catalog` set.
 */
export function takeCatalog(doc: SpecDocument, catalog: SpecDocument, ref: string): void {
  const data = doc.data;
  if (!isObject(data)) return;
  const abs = catalog.path;
  if (catalog.data === undefined && catalog.problems.length) {
    // Unreadable, or outside the project: said at the spec's `catalog:`, where the fix is.
    for (const p of catalog.problems) {
      doc.problems.push(
        diagnosticAtPath(doc, ["catalog"], {
          rule: p.rule,
          severity: p.severity,
          message: `catalog \`${ref}\`: ${p.message}`,
          hint: p.hint,
        }),
      );
    }
    return;
  }
  doc.problems.push(...catalog.problems);
  const entries = catalog.data;
  if (!isObject(entries)) {
    doc.problems.push(
      diagnosticAtPath(catalog, [], {
        rule: "schema",
        severity: "error",
        message: "a catalog is a mapping with `tools` and `models`",
        hint: "write `tools:` and `models:` as in a spec",
      }),
    );
    return;
  }
  for (const key of Object.keys(entries)) {
    if (CATALOG_KEYS.has(key)) continue;
    doc.problems.push(
      diagnosticAtPath(
        catalog,
        [key],
        {
          rule: "schema",
          severity: "error",
          message: `a catalog holds \`tools\` and \`models\`, not \`${key}\``,
          hint: "move it into the specs that use it",
        },
        "key",
      ),
    );
  }
  const taken: Record<(typeof KINDS)[number], string[]> = { tools: [], models: [] };
  for (const kind of KINDS) {
    const given = entries[kind];
    if (!isObject(given)) continue;
    const own = isObject(data[kind]) ? data[kind] : {};
    data[kind] = own;
    for (const [name, entry] of Object.entries(given)) {
      if (Object.hasOwn(own, name)) continue;
      own[name] = entry;
      taken[kind].push(name);
      if (isObject(entry)) origins.set(entry, abs);
    }
  }
  const pointers = KINDS.flatMap((kind) =>
    taken[kind].map((name) => `/${kind}/${escapeSegment(name)}`),
  );
  const base = doc.map.text.length + 1;
  doc.map = doc.map.withGraft(catalog.map, pointers);
  doc.catalog = { doc: catalog, base, ...taken };
}
