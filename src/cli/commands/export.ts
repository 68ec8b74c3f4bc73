/**
 * `graphspec export langgraph`: the project's graphs as a project the official LangGraph server
 * (`langgraphjs dev`, LangGraph Platform) serves — langgraph.json, an entry module that builds each
 * graph from its spec when the server loads it, a package.json depending on graphspec
 * (docs/deploy.md). Every spec is checked first, as validate checks it: one with errors and
 * nothing is written.
 */
import { existsSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { extname, join, relative, resolve, sep } from "node:path";
import { parseArgs } from "node:util";
import pkg from "../../../package.json" with { type: "json" };
import { validate } from "../../check/validate.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { GRAPH_EXTENSIONS } from "../../modules/files.js";
import { BESIDE_SPECS } from "../../spec/beside-specs.js";
import { isCatalog } from "../../spec/catalog.js";
import { promptSources } from "../../spec/document.js";
import { PathProbes } from "../../spec/path-probes.js";
import { ENV_FILE_OPTION, envFilePath } from "../env-file.js";
import { formatPretty, summaryLine } from "../format/pretty.js";
import { EXIT, type Io, UsageError } from "../io.js";
import {
  ENTRY_MODULE,
  type ExportedGraph,
  entryModule,
  exportNames,
  fromOut,
  langgraphJson,
  packageJson,
} from "../langgraph-project.js";
import { planWrites } from "../owned-files.js";
import { readSpecsAhead } from "../read-ahead.js";
import { VERSION } from "../version.js";

const help = `Usage: graphspec export langgraph [files or dirs...] [options]

Writes a project the official LangGraph server serves (\`npx @langchain/langgraph-cli@1.5 dev\`,
LangGraph Platform): langgraph.json, ${ENTRY_MODULE} (each graph built from its spec when the
server loads it, a factory of the run's config) and package.json (depends on graphspec).
Graphs: the specs directly in each dir (default graphs/, as \`graphspec dev\` serves them), or the
files named. Every spec is checked first, as validate checks it: with errors, nothing is written.

Options:
  -o, --out <dir>             where to write (default langgraph-export/)
      --auth <path[:export]>  a LangGraph Auth handler module, as langgraph.json's auth.path
                              (the module \`graphspec serve --auth\` takes)
      --force                 replace langgraph.json and ${ENTRY_MODULE} even when export did not
                              write them
      --env-file <path>       the file langgraph.json's env names (default: the project's .env);
                              its values are not copied
  -h, --help                  show this help

Running it again rewrites what it wrote; a file it did not write (or one edited since) is left
alone and the export refused, unless --force. A package.json it did not write is kept: it must
depend on graphspec. Exit: 0 written, 1 a spec has errors, 2 usage error. Docs: docs/deploy.md.`;

const isSpecFile = (name: string) =>
  GRAPH_EXTENSIONS.includes(extname(name).toLowerCase() as never) && !BESIDE_SPECS.test(name);

/**
 * The spec files of the arguments: a dir's specs directly in it (as dev serves them), a file itself.
 * Named as the user spelled them, as validate names them (an absolute path stays absolute), and
 * each file once however it was reached.
 */
async function specFiles(args: readonly string[], cwd: string): Promise<string[]> {
  const files = new Map<string, string>();
  const add = (named: string) => {
    const abs = resolve(cwd, named);
    if (!files.has(abs)) files.set(abs, named);
  };
  for (const arg of args) {
    const abs = resolve(cwd, arg);
    const info = await stat(abs).catch(() => undefined);
    if (!info) throw new UsageError(`"${arg}" does not exist`);
    if (info.isFile()) {
      add(arg);
      continue;
    }
    for (const n of (await readdir(abs)).filter(isSpecFile).sort()) add(join(arg, n));
  }
  return [...files.values()];
}

/** `--auth path[:export]` (from the working directory) as langgraph.json's, from the out dir. */
function authPath(arg: string, cwd: string, outDir: string): string {
  // As `graphspec serve --auth` reads it: the export's name after the last colon, default `auth`.
  const m = /^(.*?)(?::([A-Za-z_$][\w$]*))?$/.exec(arg)!;
  const [file, name] = [m[1]!, m[2] ?? "auth"];
  if (!existsSync(resolve(cwd, file)))
    throw new UsageError(`--auth: "${file}" does not exist (give path[:export] of an Auth module)`);
  return `${fromOut(outDir, resolve(cwd, file))}:${name}`;
}

/** What a package.json export did not write lacks of what the served graphs import. */
async function missingDependencies(path: string): Promise<string[]> {
  const text = await readFile(path, "utf8").catch(() => "{}");
  let manifest: Record<string, unknown> = {};
  try {
    manifest = JSON.parse(text) as Record<string, unknown>;
  } catch {}
  const declared = new Set(
    ["dependencies", "devDependencies"].flatMap((k) =>
      typeof manifest[k] === "object" && manifest[k] !== null
        ? Object.keys(manifest[k] as object)
        : [],
    ),
  );
  if (manifest.name === "graphspec") declared.add("graphspec");
  return ["graphspec", "@langchain/langgraph"].filter((d) => !declared.has(d));
}

export async function exportCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: "string", short: "o" },
      force: { type: "boolean", default: false },
      auth: { type: "string" },
      ...ENV_FILE_OPTION,
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    io.out(help);
    return EXIT.ok;
  }
  const [target, ...paths] = positionals;
  if (target !== "langgraph")
    throw new UsageError(
      target === undefined
        ? "name what to export to: `graphspec export langgraph`"
        : `cannot export to "${target}": the one target is \`langgraph\``,
    );
  // Named, never copied: the server reads it (checked before anything is written).
  const envPath = envFilePath(io, values["env-file"]);
  const files = await specFiles(paths.length ? paths : ["graphs"], io.cwd);
  if (!files.length)
    throw new UsageError(`no spec files in ${(paths.length ? paths : ["graphs"]).join(", ")}`);

  const sources = new Map<string, string>();
  const cache = new Map<string, unknown>();
  const probes = new PathProbes();
  const findings: Diagnostic[] = [];
  const graphs: ExportedGraph[] = [];
  for await (const doc of readSpecsAhead(files, io.cwd, probes)) {
    if (doc.text) sources.set(doc.file, doc.text);
    for (const [file, text] of promptSources(doc)) sources.set(file, text);
    findings.push(...(await validate(doc, { cache, probes })));
    // A catalog of tools and models is no graph: the specs naming it bring it along.
    if (isCatalog(doc)) continue;
    const name = (doc.data as { name?: unknown } | undefined)?.name;
    if (typeof name === "string") graphs.push({ name, path: doc.path });
  }
  const color = io.isTty;
  const errors = findings.filter((d) => d.severity === "error");
  if (findings.length) io.err(formatPretty(findings, sources, color));
  if (errors.length) {
    io.err(summaryLine(findings, files.length, color));
    io.err("nothing exported: fix the errors above and run export again");
    return EXIT.findings;
  }
  const seen = new Map<string, string>();
  for (const g of graphs) {
    const other = seen.get(g.name);
    if (other)
      throw new UsageError(
        `two specs are named "${g.name}" (${relative(io.cwd, other)}, ${relative(io.cwd, g.path)}): a graph id must be unique; rename one`,
      );
    seen.set(g.name, g.path);
  }

  const outDir = resolve(io.cwd, values.out ?? "langgraph-export");
  // The project's .env (or --env-file), where the server reads secrets from, as langgraph.json's
  // `env`: a path from langgraph.json's folder, as the official CLI resolves it.
  const envFile = envPath && (relative(outDir, envPath).split(sep).join("/") || ".env");
  const auth = values.auth === undefined ? undefined : authPath(values.auth, io.cwd, outDir);
  const ids = exportNames(graphs.map((g) => g.name));
  const written = new Map([
    ["langgraph.json", langgraphJson(graphs, ids, { envFile, auth })],
    [ENTRY_MODULE, entryModule(graphs, ids, outDir)],
    ["package.json", packageJson(VERSION, pkg.dependencies["@langchain/langgraph"])],
  ]);
  const plan = await outFolder(values.out, () =>
    planWrites(outDir, written, new Set(["package.json"])),
  );
  if (plan.foreign.length && !values.force) {
    io.err(
      `graphspec export: ${plan.foreign.map((f) => relative(io.cwd, join(outDir, f))).join(", ")} ${plan.foreign.length === 1 ? "was" : "were"} not written by export (or changed since); nothing written\n  hint: pass --force to replace ${plan.foreign.length === 1 ? "it" : "them"}, or --out another folder`,
    );
    return EXIT.usage;
  }
  await outFolder(values.out, () => plan.write());
  const where = relative(io.cwd, outDir) || ".";
  // The project's own package.json serves when it has what the server needs.
  for (const name of plan.skipped) {
    const missing = await missingDependencies(join(outDir, name));
    if (missing.length)
      io.err(
        `kept ${join(where, name)}, which export did not write; it does not depend on ${missing.join(" and ")}, which the server needs\n  hint: npm install ${missing.join(" ")}`,
      );
  }
  io.out(
    `exported ${graphs.length} graph${graphs.length === 1 ? "" : "s"} (${graphs.map((g) => g.name).join(", ")}) to ${where}/\n  serve them: ${where === "." ? "" : `cd ${where} && `}npx @langchain/langgraph-cli@1.5 dev (docs/deploy.md)`,
  );
  return EXIT.ok;
}

/** A file where the --out folder should be, or one that cannot be written: the user's path. */
async function outFolder<T>(out: string | undefined, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException)?.code;
    if (typeof code !== "string" || !code.startsWith("E")) throw e;
    throw new UsageError(
      `cannot write --out ${out ?? "langgraph-export"}: ${(e as Error).message}; give a folder (made if missing) you can write to`,
    );
  }
}
