/**
 * `graphspec graphs`: the project's graph catalog — what `graphspec serve` offers as assistants
 * (the same discovery, ids and JSON Schemas: server/graph-catalog.ts), with each graph's validate
 * status, so a service can build its list from one command. A graph that does not validate is
 * listed with its findings, never dropped.
 */
import { existsSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { parseArgs } from "node:util";
import { validate } from "../../check/validate.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { MetadataDiagnostic } from "../../server/assistant-metadata.js";
import type { ModelMetadata } from "../../server/model-prices.js";
import { isCatalog } from "../../spec/catalog.js";
import { readSpec } from "../../spec/load.js";
import { PathProbes } from "../../spec/path-probes.js";
import { findProjectRoot } from "../../spec/project-root.js";
import type { GraphSpec } from "../../spec/spec-types.generated.js";
import { escapeJsonControls, showControls } from "../format/control-chars.js";
import { EXIT, type Io, UsageError } from "../io.js";

const help = `Usage: graphspec graphs [dir...] [--json]

Lists the graphs in each dir (default graphs/) as \`graphspec serve\` offers them: name, description,
file, models, input/output/context JSON Schemas (with --json) and whether the spec validates.
A graph with errors is listed with them. Fixtures (*.test.yaml) and subfolders are not graphs.

Options:
      --json     the catalog as JSON (format: docs/cli.md "graphspec graphs")
  -h, --help     show this help

Exit: 0 every graph validates, 1 a graph has errors, 2 usage error.`;

/** `--json`'s format version: raised only when a key is removed or changes meaning. */
const FORMAT = 1;

export async function graphsCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    io.out(help);
    return EXIT.ok;
  }
  const { graphFilesIn, graphSchemas, uuid5 } = await import("../../server/graph-catalog.js");
  const { metadataDiagnostic } = await import("../../server/assistant-metadata.js");
  const { modelsMetadata } = await import("../../server/model-prices.js");
  const dirs = (positionals.length ? positionals : ["graphs"]).map((d) => resolve(io.cwd, d));
  const root = findProjectRoot(io.cwd);
  const shown = (file: string) =>
    (isAbsolute(file) ? relative(root, file) : file).split(sep).join("/");
  const probes = new PathProbes();
  const graphs: CatalogEntry[] = [];
  for (const dir of dirs) {
    const files = await graphFilesIn(dir);
    if (!files.length)
      throw new UsageError(
        existsSync(dir)
          ? `no graphs in ${shown(dir) || "."}: it holds no *.yaml, *.yml or *.json spec`
          : `${shown(dir)} does not exist: name the folder that holds the graphs (default graphs/)`,
      );
    for (const path of files) {
      const doc = await readSpec(path, { file: shown(path), probes });
      // A catalog of tools and models beside the graphs is theirs, not a graph (serve skips it too).
      if (isCatalog(doc)) continue;
      const found = await validate(doc, { probes });
      const spec = doc.data as GraphSpec | undefined;
      const errors = found.filter((d) => d.severity === "error").length;
      const named = typeof spec?.name === "string" ? spec.name : undefined;
      const name = named ?? stem(path);
      // Schemas are read from a spec the schema accepts; a broken one would give half-truths.
      const schemas = errors === 0 && spec ? graphSchemas({ name, spec } as never) : undefined;
      graphs.push({
        name,
        assistant_id: uuid5(name),
        description: typeof spec?.description === "string" ? spec.description : null,
        file: shown(path),
        valid: errors === 0,
        errors,
        warnings: found.length - errors,
        models: modelsOf(spec, modelsMetadata),
        input_schema: schemas?.input_schema ?? null,
        output_schema: schemas?.output_schema ?? null,
        state_schema: schemas?.state_schema ?? null,
        context_schema: schemas?.context_schema ?? null,
        diagnostics: found.map((d: Diagnostic) => metadataDiagnostic(d, shown)),
      });
    }
  }
  // Spec text reaches a terminal or a CI log: its control characters are shown, never obeyed.
  if (values.json) io.out(escapeJsonControls(JSON.stringify({ format: FORMAT, graphs }, null, 2)));
  else io.out(table(graphs));
  return graphs.some((g) => !g.valid) ? EXIT.findings : EXIT.ok;
}

interface CatalogEntry {
  name: string;
  assistant_id: string;
  description: string | null;
  file: string;
  valid: boolean;
  errors: number;
  warnings: number;
  models: Record<string, ModelMetadata>;
  input_schema: unknown;
  output_schema: unknown;
  state_schema: unknown;
  context_schema: unknown;
  diagnostics: MetadataDiagnostic[];
}

const stem = (path: string) => (path.split(/[\\/]/).pop() ?? path).replace(/\.[^.]+$/, "");

/** The spec's models as the server's `metadata.graphspec.models` says them; none read from a broken spec. */
function modelsOf(
  spec: GraphSpec | undefined,
  modelsMetadata: (spec: GraphSpec) => Record<string, ModelMetadata>,
): Record<string, ModelMetadata> {
  try {
    return spec ? modelsMetadata(spec) : {};
  } catch {
    return {};
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function table(graphs: CatalogEntry[]): string {
  const status = (g: CatalogEntry) =>
    !g.valid
      ? `✖ ${plural(g.errors, "error")}`
      : g.warnings
        ? `⚠ ${plural(g.warnings, "warning")}`
        : "✔ valid";
  const rows = [
    ["NAME", "FILE", "STATUS", "DESCRIPTION"],
    ...graphs.map((g) => [
      showControls(g.name),
      showControls(g.file),
      status(g),
      showControls(oneLine(g.description ?? "")),
    ]),
  ];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = rows.map((r) =>
    r
      .map((cell, i) => (i < 3 ? cell.padEnd(widths[i]!) : cell))
      .join("  ")
      .trimEnd(),
  );
  // The errors of a graph that does not validate, under the table: what to fix, where.
  for (const g of graphs.filter((g) => !g.valid)) {
    const file = showControls(g.file);
    lines.push("", `${file}:`);
    for (const d of g.diagnostics.filter((d) => d.severity === "error"))
      lines.push(`  ${showControls(`${d.file}:${d.line}:${d.col}: ${d.message}`)} [${d.rule}]`);
    lines.push(`  run \`graphspec validate ${file}\` for the details`);
  }
  return lines.join("\n");
}

const oneLine = (text: string, max = 72): string => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};
