/**
 * `graphspec init [dir]`: a new project in one command — a graph, its tool, its fixture, a README,
 * a package.json and a CI workflow — copied from the package's `templates/init/` (files, so they
 * are read, linted and reviewed as what they are). It validates, tests and runs offline at once.
 */
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { EXIT, type Io, UsageError } from "../io.js";
import { VERSION } from "../version.js";

const help = `Usage: graphspec init [dir] [--force]

Makes a new graphspec project in dir (default: the current directory): graphs/triage.yaml (state,
a model call, a route, an approval, a tool), its tool, its fixture, scripts.json (offline model
answers), graphspec.lock.json (the tool's argument schema, which validate checks against without
running the tool), a README, a package.json (scripts validate, lock, test, dev) and a GitHub
Actions workflow.

Options:
      --force    add the files to a directory that is not empty (an existing file is never
                 overwritten: it is kept, and said so)
  -h, --help     show this help`;

/** The package's templates: dist/cli/commands/ → the package root. */
const TEMPLATES = fileURLToPath(new URL("../../../templates/init/", import.meta.url));

/** Files npm would rename or drop on publish are kept under another name in the package. */
const RENAMED: Record<string, string> = { gitignore: ".gitignore" };

export async function initCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      force: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    io.out(help);
    return EXIT.ok;
  }
  if (positionals.length > 1) throw new UsageError("give one directory");
  const target = resolve(io.cwd, positionals[0] ?? ".");
  const below = relative(io.cwd, target);
  // A directory outside the working one is named in full: `cd ../../tmp/x` helps nobody.
  const shown = below === "" ? "." : below.startsWith("..") || isAbsolute(below) ? target : below;
  const existing = await readdir(target).catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT") return [] as string[];
    if (e.code === "ENOTDIR") throw new UsageError(`${shown} is a file, not a directory`);
    throw e;
  });
  if (existing.length && !values.force)
    throw new UsageError(
      `${shown} is not empty (${existing.slice(0, 3).join(", ")}${existing.length > 3 ? ", …" : ""}); ` +
        "give an empty or new directory, or --force to add the files that are missing (none is overwritten)",
    );

  const created: string[] = [];
  const kept: string[] = [];
  for (const file of await templateFiles(TEMPLATES)) {
    const out = join(target, ...file.split("/").map((part) => RENAMED[part] ?? part));
    const name = relative(target, out).split("\\").join("/");
    if (await exists(out)) {
      kept.push(name);
      continue;
    }
    let text = await readFile(join(TEMPLATES, file), "utf8");
    if (file === "package.json") text = await packageJson(text, basename(target));
    await mkdir(dirname(out), { recursive: true });
    // `wx`: a file that appeared since the check is still not overwritten.
    await writeFile(out, text, { flag: "wx" });
    created.push(name);
  }
  const lines = [
    `Created a graphspec project in ${shown}:`,
    ...created.map((f) => `  + ${f}`),
    ...kept.map((f) => `  = ${f} (exists: kept as it is)`),
    "",
    "Next:",
    ...(shown === "." ? [] : [`  cd ${shown}`]),
    "  npm install",
    "  npx graphspec validate && npx graphspec test",
    `  npx graphspec run triage --input '{"request":"the site is down"}' --scripts @scripts.json`,
  ];
  io.out(lines.join("\n"));
  return EXIT.ok;
}

/** Every file under `dir`, relative with `/`, sorted. */
async function templateFiles(dir: string, prefix = ""): Promise<string[]> {
  const entries = await readdir(join(dir, prefix), { withFileTypes: true });
  const files: string[] = [];
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) files.push(...(await templateFiles(dir, path)));
    else files.push(path);
  }
  return files;
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/**
 * The template's package.json with the project's name and the versions this graphspec works with:
 * graphspec itself, the `@langchain/core` and `zod` the tool imports (graphspec's own ranges, so
 * npm installs one copy of each), and the optional peers a project that runs and serves its graphs
 * uses (the SQLite checkpointer; the dev server and its hot reload).
 */
async function packageJson(template: string, dirName: string): Promise<string> {
  const pkg = JSON.parse(template) as {
    name: string;
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const own = JSON.parse(
    await readFile(fileURLToPath(new URL("../../../package.json", import.meta.url)), "utf8"),
  ) as { dependencies: Record<string, string>; peerDependencies: Record<string, string> };
  const range = (dep: string) =>
    dep === "graphspec"
      ? `^${VERSION}`
      : (own.dependencies[dep] ?? own.peerDependencies[dep] ?? "*");
  const name = dirName
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[._-]+|-+$/g, "");
  if (name) pkg.name = name;
  for (const deps of [pkg.dependencies, pkg.devDependencies])
    for (const dep of Object.keys(deps)) deps[dep] = range(dep);
  return `${JSON.stringify(pkg, null, 2)}\n`;
}
