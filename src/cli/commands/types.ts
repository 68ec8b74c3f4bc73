import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { parseArgs } from "node:util";
import { validate } from "../../check/validate.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { loadPeer } from "../../peers/load-peer.js";
import { isCatalog } from "../../spec/catalog.js";
import { promptSources } from "../../spec/document.js";
import { notASpec } from "../../spec/not-a-spec.js";
import { PathProbes } from "../../spec/path-probes.js";
import type { GraphSpec } from "../../spec/spec-types.generated.js";
import { GENERATED_MARK } from "../../typegen/generated-mark.js";
import type { GraphSource } from "../../typegen/types-modules.js";
import { expandSpecPaths } from "../files.js";
import { formatPretty, summaryLine } from "../format/pretty.js";
import { EXIT, type Io, UsageError } from "../io.js";
import { readSpecsAhead } from "../read-ahead.js";

export const typesHelp = `Usage: graphspec types [paths|globs|dirs...] -o <dir> [--check]

Writes TypeScript types for each graph (default: graphs/) — state, input, output, context, each
interrupt's payload and resume value — and typed helpers to run it, one module per graph plus
index.ts. The specs must validate. The same specs give the same bytes: commit the folder.

Options:
  -o, --out <dir>   the folder to write (made if missing); generated files of graphs no longer
                    given are removed from it
      --check       write nothing: exit 1 if the folder differs from what would be written
  -h, --help        show this help

Exit: 0 written (or up to date), 1 spec errors (or --check found a difference), 2 usage error.
Docs: docs/cli.md, docs/types.md.`;

export async function typesCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: "string", short: "o" },
      check: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    io.out(typesHelp);
    return EXIT.ok;
  }
  if (!values.out) throw new UsageError("say where to write the types: -o <dir>");
  const out = resolve(io.cwd, values.out);

  const { files, missing, escapes } = await expandSpecPaths(
    positionals.length ? positionals : ["graphs/"],
    io.cwd,
  );
  if (missing.length)
    throw new UsageError(`no spec files match ${missing.map((m) => `"${m}"`).join(", ")}`);
  if (escapes.length)
    throw new UsageError(
      `${escapes.map((e) => `"${e.path}"`).join(", ")} lead${escapes.length === 1 ? "s" : ""} out of the project through a symbolic link`,
    );

  const graphs: GraphSource[] = [];
  const problems: Diagnostic[] = [];
  const sources = new Map<string, string>();
  const probes = new PathProbes();
  for await (const doc of readSpecsAhead(files, io.cwd, probes)) {
    // A shared catalog of tools and models is no graph.
    if (isCatalog(doc)) continue;
    if (doc.text && !notASpec(doc)) sources.set(doc.file, doc.text);
    for (const [file, text] of promptSources(doc)) sources.set(file, text);
    // A stale tool lock is CI's to report (validate); the types do not depend on it.
    const errors = (await validate(doc, { probes, toolLock: false })).filter(
      (d) => d.severity === "error",
    );
    if (errors.length) {
      problems.push(...errors);
      continue;
    }
    // Named relative to the folder written, so the bytes do not depend on where the command runs.
    const from = relative(out, resolve(io.cwd, doc.file)).split(sep).join("/");
    graphs.push({ spec: doc.data as GraphSpec, file: resolve(io.cwd, doc.file), from });
  }
  if (problems.length) {
    io.out(`${formatPretty(problems, sources, io.isTty)}\n`);
    io.err(summaryLine(problems, files.length, io.isTty));
    io.err(
      "graphspec types: no types written; fix the errors above (`graphspec validate` shows them too)",
    );
    return EXIT.findings;
  }
  if (graphs.length === 0) throw new UsageError("no graph specs among the files given");

  // json-schema-to-typescript (and prettier under it) is loaded only by this command.
  const { typesModules } = await loadPeer("types", () => import("../../typegen/types-modules.js"));
  const wanted = await typesModules(graphs);
  const shown = (name: string) => relative(io.cwd, join(out, name)) || name;
  const stale = await staleFiles(out, wanted);

  if (values.check) {
    const differ: string[] = [];
    for (const [name, text] of wanted) {
      const onDisk = await readFile(join(out, name), "utf8").catch(() => undefined);
      if (onDisk !== text)
        differ.push(`${shown(name)}: ${onDisk === undefined ? "missing" : "out of date"}`);
    }
    for (const name of stale) differ.push(`${shown(name)}: of no graph given (stale)`);
    if (differ.length === 0) {
      io.err(`✔ ${shown("")} is up to date (${wanted.size} files)`);
      return EXIT.ok;
    }
    io.err(`${differ.join("\n")}\n✖ the generated types differ from the specs
  hint: run \`graphspec types\` with the same arguments and without --check, and commit the result`);
    return EXIT.findings;
  }
  try {
    await mkdir(out, { recursive: true });
    for (const [name, text] of wanted) await writeFile(join(out, name), text);
    for (const name of stale) await rm(join(out, name));
  } catch (e) {
    // A file where the folder should be, or no permission: the user's path, so a usage error.
    throw new UsageError(
      `cannot write --out ${values.out}: ${(e as Error).message}; give a folder (made if missing) you can write to`,
    );
  }
  io.err(
    `wrote ${wanted.size} files to ${shown("")}${stale.length ? `, removed ${stale.length} stale` : ""}`,
  );
  return EXIT.ok;
}

/** Modules this command wrote before (they carry its mark) that no graph given writes now. */
async function staleFiles(out: string, wanted: ReadonlyMap<string, string>): Promise<string[]> {
  const names = await readdir(out).catch(() => [] as string[]);
  const stale: string[] = [];
  for (const name of names.filter((n) => n.endsWith(".ts") && !wanted.has(n)).sort()) {
    const text = await readFile(join(out, name), "utf8").catch(() => "");
    if (text.startsWith(GENERATED_MARK)) stale.push(name);
  }
  return stale;
}
