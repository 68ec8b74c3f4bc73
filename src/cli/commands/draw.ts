import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { validate } from "../../check/validate.js";
import { toMermaid } from "../../draw/mermaid.js";
import { toSvg } from "../../draw/svg.js";
import { requirePeers } from "../../peers/load-peer.js";
import { graphDrawing } from "../../server/graph-drawing.js";
import { promptSources } from "../../spec/document.js";
import { readSpec } from "../../spec/load.js";
import type { GraphSpec } from "../../spec/spec-types.generated.js";
import { formatPretty } from "../format/pretty.js";
import { EXIT, type Io, UsageError } from "../io.js";

export const drawHelp = `Usage: graphspec draw <spec|graph> [options]

Draws a graph from its spec: nodes shaped by kind, START and END, edges chosen at run time dashed
and labelled with their condition, breakpoints and pause points marked, map (Send) fan-out and
joins shown. <graph> is a graph name: graphs/<graph>.yaml (.yml, .json).

Options:
  -f, --format <mermaid|svg|png>  mermaid (default): Mermaid flowchart text; svg: an SVG document;
                                  png: an image rendered here (resvg, the system's fonts), no service
  -o, --out <file>                write to a file (needed for png) instead of stdout
      --xray                      draw each subgraph's nodes inside it (ids parent:child)
  -h, --help                      show this help

The spec is validated first: errors are printed (file:line:col) and nothing is drawn (exit 1);
warnings are printed and the graph is drawn.
Exit: 0 drawn, 1 the spec has errors, 2 usage error. Docs: docs/cli.md.`;

const FORMATS = ["mermaid", "svg", "png"] as const;
type Format = (typeof FORMATS)[number];
/** `--xray` opens every level, as `?xray=true` does on the server. */
const XRAY_ALL = 16;
const GRAPH_NAME = /^[a-z][a-z0-9_-]*$/;

/** The spec file `arg` names: a path, else a graph name in graphs/. */
function specPath(arg: string, cwd: string): string {
  const path = resolve(cwd, arg);
  if (existsSync(path)) return path;
  if (GRAPH_NAME.test(arg))
    for (const ext of [".yaml", ".yml", ".json"]) {
      const named = resolve(cwd, "graphs", arg + ext);
      if (existsSync(named)) return named;
    }
  throw new UsageError(
    `no spec file "${arg}"${GRAPH_NAME.test(arg) ? ` (nor graphs/${arg}.yaml, .yml or .json)` : ""}: give a spec file or a graph name`,
  );
}

export async function drawCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      format: { type: "string", short: "f", default: "mermaid" },
      out: { type: "string", short: "o" },
      xray: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    io.out(drawHelp);
    return EXIT.ok;
  }
  const format = values.format as Format;
  if (!FORMATS.includes(format))
    throw new UsageError(`--format must be one of ${FORMATS.join(", ")}, not "${values.format}"`);
  if (positionals.length !== 1) throw new UsageError("draw takes one spec file or graph name");
  if (values.out === "") throw new UsageError("--out needs a file name");
  // A PNG is bytes, not text: never to a terminal, nor mixed into a pipe by accident.
  if (format === "png" && values.out === undefined)
    throw new UsageError("--format png writes an image: give --out FILE (e.g. --out graph.png)");

  const path = specPath(positionals[0]!, io.cwd);
  const file = relative(io.cwd, path) || path;
  const doc = await readSpec(path, { file });
  // What validate says is what decides: a spec with errors never compiles, so no drawing of it
  // would show a graph that runs. Warnings do not stop a run; they do not stop a drawing either.
  // A stale tool lock does not stop a run (it imports the tools), so not a drawing either.
  const diagnostics = await validate(doc, { toolLock: false });
  if (diagnostics.length) {
    const sources = new Map([
      ...(doc.text ? [[doc.file, doc.text] as const] : []),
      ...promptSources(doc),
    ]);
    io.err(formatPretty(diagnostics, sources, io.isTty));
  }
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  if (errors) {
    io.err(`graphspec draw: ${file} has ${errors} error${errors === 1 ? "" : "s"}: nothing drawn`);
    return EXIT.findings;
  }
  const spec = doc.data as GraphSpec;
  const graph = await graphDrawing({ path, spec }, values.xray ? XRAY_ALL : 0);

  if (format === "mermaid") return emit(io, values.out, toMermaid(graph));
  // dagre lays out the drawing (and resvg renders a PNG): loaded only for the formats drawn here.
  await requirePeers(format === "png" ? ["layout", "png"] : ["layout"]);
  const { layoutGraph } = await import("../../draw/layout.js");
  const svg = toSvg(layoutGraph(graph), spec.name ?? file);
  if (format === "svg") return emit(io, values.out, svg);
  // Loaded only here: a native addon the other formats never need.
  let renderPng: typeof import("../../draw/png.js").renderPng;
  try {
    // Installed (requirePeers above), but its binary for this platform may not load.
    ({ renderPng } = await import("../../draw/png.js"));
  } catch (e) {
    // resvg ships a binary per platform; one npm did not install (or cannot load) ends here.
    io.err(
      `graphspec draw: cannot load the PNG renderer (@resvg/resvg-js) on ${process.platform}-${process.arch}: ${(e as Error).message.split("\n")[0]}\n  hint: reinstall graphspec's dependencies (npm ci) on this machine, or use --format svg`,
    );
    return EXIT.usage;
  }
  const png = renderPng(svg);
  if (!png.fonts)
    io.err(
      "graphspec draw: no fonts found on this system, so the PNG has no text: install some (Debian: apt-get install fonts-dejavu-core) or use --format svg",
    );
  return emit(io, values.out, png.bytes);
}

async function emit(
  io: Io,
  out: string | undefined,
  content: string | Uint8Array,
): Promise<number> {
  if (out === undefined) {
    io.out(content as string);
    return EXIT.ok;
  }
  try {
    await writeFile(resolve(io.cwd, out), content);
  } catch (e) {
    throw new UsageError(`cannot write --out ${out}: ${(e as Error).message}`);
  }
  return EXIT.ok;
}
