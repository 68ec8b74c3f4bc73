/**
 * The modules `graphspec types` writes: one per graph (its types, and typed helpers to invoke it
 * compiled or through an executor) and an index re-exporting them all. The same specs give the
 * same bytes, so the files can be committed and compared in CI (`--check`).
 *
 * JSON Schema → TypeScript is json-schema-to-typescript's (the generator of the spec's own types,
 * scripts/gen.mjs): it handles the whole of JSON Schema, quotes property names that are not
 * identifiers, and formats with prettier.
 */
import { compile as schemaToTs } from "json-schema-to-typescript";
import type { GraphSpec } from "../spec/spec-types.generated.js";
import { specTree } from "./child-specs.js";
import { GENERATED_MARK } from "./generated-mark.js";
import { graphTypeSchemas, NS } from "./graph-schemas-ts.js";
import { camelCase, fileStems, pascalCase, uniqueBases } from "./ts-names.js";

export interface GraphSource {
  spec: GraphSpec;
  /** The spec file's absolute path (its subgraphs are read relative to it). */
  file: string;
  /** The spec file, relative to the output folder (named in the header). */
  from: string;
}

/** The names a graph's module exports, after its base name. */
const TYPE_SUFFIXES = [
  "",
  "State",
  "Update",
  "Input",
  "Output",
  "Context",
  "Interrupts",
  "Interrupt",
  "Answer",
  "RunResult",
  "InvokeResult",
];
const VALUE_SUFFIXES = ["Graph", "Runs"];

/** One line of a comment: a graph name or path with a line break cannot end the comment early. */
const oneLine = (text: string) => text.replace(/[\r\n\u2028\u2029]+/g, " ");

const header = (g: GraphSource) =>
  `${GENERATED_MARK} from ${oneLine(g.from)} (graph ${oneLine(JSON.stringify(g.spec.name))}).
// Do not edit: change the spec and run \`graphspec types\` again.
`;

/** The name generated under: json-schema-to-typescript rewrites names (`ü`, `1st`), so ours replace it. */
const PLACEHOLDER = "GraphspecGeneratedType";

async function toTs(schema: Record<string, unknown>, name: string): Promise<string> {
  const text = await schemaToTs({ ...schema, title: PLACEHOLDER } as never, PLACEHOLDER, {
    bannerComment: "",
    additionalProperties: false,
    declareExternallyReferenced: true,
    strictIndexSignatures: true,
    unknownAny: true,
    format: true,
    style: { printWidth: 100, singleQuote: false, trailingComma: "all" },
  });
  // Titles are taken out of the schemas (withoutTitles): this is the one declaration.
  const declared = new RegExp(`^export (interface|type) ${PLACEHOLDER}\\b`, "m");
  if (!declared.test(text)) throw new Error(`json-schema-to-typescript declared no ${PLACEHOLDER}`);
  return text.replace(declared, `export $1 ${name}`);
}

/** A doc comment's text, with nothing that could end the comment. */
const docText = (text: string) => text.replaceAll("*/", "*\\/").replace(/\s+/g, " ").trim();

async function graphModule(g: GraphSource, base: string, value: string): Promise<string> {
  const s = graphTypeSchemas(await specTree(g.spec, g.file));
  const name = JSON.stringify(g.spec.name);
  const parts = [
    await toTs(s.state, `${base}State`),
    await toTs(s.update, `${base}Update`),
    await toTs(s.input, `${base}Input`),
    await toTs(s.output, `${base}Output`),
    await toTs(s.context, `${base}Context`),
    await toTs(s.interrupts, `${base}Interrupts`),
  ];
  const about = g.spec.description ? ` ${docText(g.spec.description)}` : "";
  return `${header(g)}
import * as ${NS} from "graphspec";

/** Graph ${docText(name)}: the state a run holds.${about} */
${parts.join("\n")}
/** Everything graph ${docText(name)} takes and gives, for \`graphspec.typedRuns\` and \`graphspec.typedGraph\`. */
export interface ${base} {
  name: ${name};
  state: ${base}State;
  input: ${base}Input;
  output: ${base}Output;
  context: ${base}Context;
  interrupts: ${base}Interrupts;
}

/** A pending interrupt: narrow on \`node\` to know its \`value\`. */
export type ${base}Interrupt = ${NS}.TypedInterrupt<${base}>;
/** An answer to a pending interrupt: \`{ node, value }\`, the value of the type that node takes. */
export type ${base}Answer = ${NS}.TypedAnswer<${base}>;
/** What an executor's run or resume of this graph gives back. */
export type ${base}RunResult = ${NS}.TypedRunResult<${base}>;
/** What a compiled graph's typed invoke or resume gives back. */
export type ${base}InvokeResult = ${NS}.TypedInvokeResult<${base}>;

/** The graph \`compile()\` built from this spec (given a checkpointer), with typed invoke and resume. */
export function ${value}Graph(graph: ${NS}.SpecGraph): ${NS}.TypedGraph<${base}> {
  return ${NS}.typedGraph<${base}>(graph);
}

/** Typed runs of this graph on an executor; \`graph\` is how the executor finds it (default: its name). */
export function ${value}Runs(
  executor: ${NS}.Executor,
  graph: string = ${name},
): ${NS}.TypedRuns<${base}> {
  return ${NS}.typedRuns<${base}>(executor, graph);
}
`;
}

/** The files to write, by name relative to the output folder. */
export async function typesModules(graphs: readonly GraphSource[]): Promise<Map<string, string>> {
  // By graph name (then file), so the order the specs were given in changes nothing.
  const sorted = [...graphs].sort((a, b) =>
    a.spec.name === b.spec.name ? (a.from < b.from ? -1 : 1) : a.spec.name < b.spec.name ? -1 : 1,
  );
  const names = sorted.map((g) => g.spec.name);
  const bases = uniqueBases(names, pascalCase, TYPE_SUFFIXES);
  const values = uniqueBases(names, camelCase, VALUE_SUFFIXES);
  const stems = fileStems(names);
  const files = new Map<string, string>();
  for (const [i, g] of sorted.entries()) {
    files.set(`${stems[i]}.ts`, await graphModule(g, bases[i]!, values[i]!));
  }
  const index = `${GENERATED_MARK}: every graph's module. Do not edit: run \`graphspec types\` again.
${stems.map((stem) => `export * from "./${stem}.js";`).join("\n")}
`;
  files.set("index.ts", index);
  return files;
}
