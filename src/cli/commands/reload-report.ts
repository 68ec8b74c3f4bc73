/**
 * What `graphspec dev` says when a graph reloads: a line per reload, and a refused change's
 * diagnostics — or a served version's warnings — as `graphspec validate` prints them (paths from
 * the working directory, source lines).
 */
import { readFileSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import type { ReloadEvent } from "../../dev/reload-event.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { formatPretty } from "../format/pretty.js";
import type { Io } from "../io.js";

export function reloadReporter(io: Io): (event: ReloadEvent) => void {
  const shown = (path: string) => relative(io.cwd, path) || path;
  return (event) => {
    if (event.type === "reloaded") {
      // The first load's warnings too: what validate would say, said once per version.
      if (event.warnings?.length) io.err(pretty(event.warnings, io));
      if (event.changed.length)
        io.err(
          `reloaded ${shown(event.path)} (version ${event.version}, ${Math.round(event.ms)} ms)`,
        );
    } else if (event.type === "rejected") {
      const kept =
        event.kept === undefined
          ? "it is not served until it is fixed"
          : `version ${event.kept} keeps serving`;
      io.err(
        event.diagnostics.length
          ? pretty(event.diagnostics, io)
          : `${shown(event.path)}: ${event.message}`,
      );
      io.err(`refused ${shown(event.path)}: ${kept}`);
    }
  };
}

function pretty(found: readonly Diagnostic[], io: Io): string {
  const sources = new Map<string, string>();
  const diagnostics = found.map((d) =>
    isAbsolute(d.file) ? { ...d, file: relative(io.cwd, d.file) || d.file } : d,
  );
  for (const d of diagnostics) {
    if (sources.has(d.file)) continue;
    try {
      sources.set(d.file, readFileSync(resolve(io.cwd, d.file), "utf8"));
    } catch {
      // A file that cannot be read shows its diagnostics without the source line.
    }
  }
  return formatPretty(diagnostics, sources, io.isTty);
}
