/**
 * `graphspec lock [paths...]`: loads every tool module the specs name — each in a process of its
 * own, as `validate --load-modules` does — and writes what they export, tools' argument schemas
 * included, with each module's content hash, to `graphspec.lock.json` at the project root. Then
 * `graphspec validate`, which runs nothing, checks tool arguments against the lock, and reports a
 * module that changed since (`tool-lock`). `--check` compares instead of writing.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import {
  DEFAULT_LOAD_TIMEOUT_MS,
  type ExportFacts,
  isolatedInspector,
  LOCK_FILE,
  type LockedModule,
  lockKey,
  lockText,
  type ModuleRef,
  moduleHash,
  moduleRefs,
  resolveModuleFile,
  sharedIn,
} from "../../modules/index.js";
import { PathProbes } from "../../spec/path-probes.js";
import { durationArg } from "../args.js";
import { expandSpecPaths } from "../files.js";
import { EXIT, type Io, UsageError } from "../io.js";
import { readSpecsAhead } from "../read-ahead.js";

const help = `Usage: graphspec lock [paths|globs|dirs...] [options]

Loads the tool modules the specs name (default: graphs/) and writes what they export — each
tool's argument JSON Schema and description — with each module's content hash to
graphspec.lock.json at the project root. \`graphspec validate\` then checks tool arguments against
it without running any module, and reports a tool module that changed since (rule tool-lock).
This runs the modules' code: run it where the code is trusted, and commit the file.

Options:
      --check                    write nothing: exit 1 when graphspec.lock.json is not what
                                 this would write
      --load-timeout <duration>  how long one module may take to load (default 10s)
      --load-env <NAME>          pass environment variable NAME to the loading processes;
                                 repeatable (they get only PATH otherwise)
  -h, --help                     show this help

Exit: 0 written (or up to date), 1 a module did not load (or --check found the lock stale),
2 usage error. Docs: docs/cli.md#graphspec-lock.`;

/** One tool module to lock: where it is, and the first reference that names it (for messages). */
interface Wanted {
  abs: string;
  ref: ModuleRef;
  spec: string;
}

export async function lockCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      check: { type: "boolean", default: false },
      "load-timeout": { type: "string" },
      "load-env": { type: "string", multiple: true },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    io.out(help);
    return EXIT.ok;
  }
  const env: Record<string, string> = {};
  for (const name of values["load-env"] ?? []) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new UsageError(`--load-env takes a variable name, not "${name}"`);
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  const timeout = durationArg("load-timeout", values["load-timeout"]) ?? DEFAULT_LOAD_TIMEOUT_MS;

  const { files, missing } = await expandSpecPaths(
    positionals.length ? positionals : ["graphs/"],
    io.cwd,
  );
  if (missing.length)
    throw new UsageError(`no spec files match ${missing.map((m) => `"${m}"`).join(", ")}`);

  // Tool modules by project root, then by their key in that root's lock.
  const roots = new Map<string, Map<string, Wanted>>();
  const probes = new PathProbes();
  for await (const doc of readSpecsAhead(files, io.cwd, probes)) {
    const wanted = roots.get(doc.root) ?? new Map<string, Wanted>();
    roots.set(doc.root, wanted);
    for (const ref of moduleRefs(doc.data)) {
      if (ref.kind !== "tool") continue;
      const file = await resolveModuleFile({ specPath: doc.path, root: doc.root, probes }, ref);
      // A reference that does not resolve is validate's to report.
      if (!file.ok) continue;
      const key = lockKey(doc.root, file.abs);
      if (!wanted.has(key)) wanted.set(key, { abs: file.abs, ref, spec: doc.file });
    }
  }

  const inspect = isolatedInspector({ timeout, env });
  const shared = sharedIn(new Map());
  let failed = false;
  let loadFailed = false;
  for (const [root, wanted] of roots) {
    let rootFailed = false;
    const lockPath = join(root, LOCK_FILE);
    const shown = relative(io.cwd, lockPath) || LOCK_FILE;
    const before = await readFile(lockPath, "utf8").catch(() => undefined);
    if (!wanted.size && before === undefined) continue;
    const modules = new Map<string, LockedModule>();
    for (const [key, { abs, ref, spec }] of [...wanted].sort(([a], [b]) => a.localeCompare(b))) {
      // Hashed before loading: a lock never pairs a hash with exports of other content.
      const sha256 = await moduleHash(abs, root, shared);
      if (sha256 === undefined) {
        io.err(`${spec}: module \`${ref.module}\` cannot be read`);
        rootFailed = true;
        continue;
      }
      const report = await inspect(abs, root, shared);
      if (!report.ok) {
        const { message, hint } = report.describe(ref.module);
        io.err(`${spec}: ${message}${hint ? ` (${hint})` : ""}`);
        rootFailed = true;
        continue;
      }
      const exports = new Map<string, ExportFacts>();
      for (const name of [...report.exports.names].sort()) {
        const facts = await report.exports.facts?.(name);
        if (facts) exports.set(name, facts);
      }
      modules.set(key, { sha256, exports });
    }
    if (rootFailed) {
      failed = loadFailed = true;
      continue;
    }
    const text = lockText({ modules });
    const tools = [...modules.values()].reduce(
      (n, m) => n + [...m.exports.values()].filter((f) => f.kind === "tool").length,
      0,
    );
    const counted = `${modules.size} module${modules.size === 1 ? "" : "s"}, ${tools} tool${tools === 1 ? "" : "s"}`;
    if (text === before) {
      io.out(`✔ ${shown} is up to date (${counted})`);
    } else if (values.check) {
      io.err(
        `✖ ${shown} is ${before === undefined ? "missing" : "out of date"}: run \`npx graphspec lock\` and commit it`,
      );
      failed = true;
    } else {
      await writeFile(lockPath, text);
      io.out(`✔ wrote ${shown} (${counted})`);
    }
  }
  if (failed) {
    if (loadFailed) io.err(`${LOCK_FILE} was not written: fix the modules above first`);
    return EXIT.findings;
  }
  return EXIT.ok;
}
