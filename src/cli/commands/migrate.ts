/**
 * `graphspec migrate <files…> [--check]`: rewrites specs of an older `version` to the current one,
 * keeping comments and formatting (spec/migrations/). A current spec is left byte for byte as it
 * is; a file that cannot be migrated is named with why, and never written.
 */
import { readFile, stat, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { LOAD_LIMITS } from "../../spec/load.js";
import {
  CURRENT_VERSION,
  MigrationError,
  migrateSpecText,
  positionOf,
} from "../../spec/migrations/migrate.js";
import { expandSpecPaths } from "../files.js";
import { showControls } from "../format/control-chars.js";
import { EXIT, type Io, UsageError } from "../io.js";

const help = `Usage: graphspec migrate <files|dirs|globs...> [--check]

Rewrites each spec from an older \`version\` to the current one (${CURRENT_VERSION}), keeping its comments,
blank lines, key order and formatting (a JSON spec stays JSON). A current spec is not touched.
Directories and globs are expanded as by validate (fixtures, *.test.yaml, skipped).

Options:
      --check    write nothing; exit 1 when a file would change (for CI)
  -h, --help     show this help

Exit: 0 nothing left to migrate, 1 a file would change (--check) or cannot be migrated, 2 usage error.`;

export async function migrateCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      check: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    io.out(help);
    return EXIT.ok;
  }
  if (!positionals.length) throw new UsageError("name the spec files to migrate (or a directory)");
  const { files, missing, escapes } = await expandSpecPaths(positionals, io.cwd);
  if (missing.length)
    throw new UsageError(`no spec files match ${missing.map((m) => `"${m}"`).join(", ")}`);

  let pending = 0;
  let failed = 0;
  // A symbolic link out of the project is not read, let alone written through.
  for (const e of escapes) {
    io.err(
      `${e.path}: cannot migrate: the ${e.kind} leads out of the project through a symbolic link`,
    );
    failed++;
  }
  for (const name of files) {
    const path = resolve(io.cwd, name);
    // A file name reaches the terminal: its control characters are shown, never obeyed.
    const file = showControls(name);
    let text: string;
    let result: ReturnType<typeof migrateSpecText>;
    try {
      text = await readText(path);
      result = migrateSpecText(text);
    } catch (e) {
      if (!(e instanceof MigrationError)) throw e;
      const at = e.offset === undefined ? "" : `:${pos(text!, e.offset)}`;
      io.err(
        `${file}${at}: cannot migrate: ${showControls(e.message)} (the file is left as it was)`,
      );
      failed++;
      continue;
    }
    if (result.from === null) {
      io.out(`${file}: a catalog, its specs' version applies: unchanged`);
      continue;
    }
    if (!result.changed) {
      io.out(`${file}: version ${result.from} is current, unchanged`);
      continue;
    }
    const steps = result.steps.map((s) => `\n  ${s}`).join("");
    if (values.check) {
      pending++;
      io.out(`${file}: would migrate version ${result.from} → ${result.to}${steps}`);
    } else {
      await writeFile(path, result.text);
      io.out(`${file}: migrated version ${result.from} → ${result.to}${steps}`);
    }
  }
  if (values.check && pending)
    io.err(
      `${pending} file${pending === 1 ? "" : "s"} to migrate: run \`graphspec migrate\` on them`,
    );
  return failed || pending ? EXIT.findings : EXIT.ok;
}

/**
 * The file as UTF-8 text, which is what migrate writes back: a binary file, another encoding or a
 * file past the loader's size limit is refused, so writing can never change a file's encoding.
 */
async function readText(path: string): Promise<string> {
  const info = await stat(path);
  if (info.size > LOAD_LIMITS.maxBytes)
    throw new MigrationError(
      `the file is ${info.size} bytes; a spec may have at most ${LOAD_LIMITS.maxBytes}`,
    );
  const bytes = await readFile(path);
  if (bytes.includes(0))
    throw new MigrationError("the file is not UTF-8 text (it has NUL bytes, or is UTF-16)");
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new MigrationError("the file is not UTF-8 text: migrate reads and writes UTF-8 only");
  }
}

const pos = (text: string, offset: number) => {
  const { line, col } = positionOf(text, offset);
  return `${line}:${col}`;
};
