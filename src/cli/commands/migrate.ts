/**
 * `graphspec migrate <files…> [--check]`: rewrites specs of an older `version` to the current one,
 * keeping comments and formatting (spec/migrations/). A current spec is left byte for byte as it
 * is; a file that cannot be migrated is named with why, and never written.
 */
import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  CURRENT_VERSION,
  MigrationError,
  migrateSpecText,
  positionOf,
} from "../../spec/migrations/migrate.js";
import { expandSpecPaths } from "../files.js";
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
  const { files, missing } = await expandSpecPaths(positionals, io.cwd);
  if (missing.length)
    throw new UsageError(`no spec files match ${missing.map((m) => `"${m}"`).join(", ")}`);

  let pending = 0;
  let failed = 0;
  for (const file of files) {
    const path = resolve(io.cwd, file);
    const text = await readFile(path, "utf8");
    let result: ReturnType<typeof migrateSpecText>;
    try {
      result = migrateSpecText(text);
    } catch (e) {
      if (!(e instanceof MigrationError)) throw e;
      const at = e.offset === undefined ? "" : `:${pos(text, e.offset)}`;
      io.err(`${file}${at}: cannot migrate: ${e.message} (the file is left as it was)`);
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

const pos = (text: string, offset: number) => {
  const { line, col } = positionOf(text, offset);
  return `${line}:${col}`;
};
