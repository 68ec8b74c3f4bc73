#!/usr/bin/env node
/**
 * Bundles `graphspec validate` into one script, dist/cli/validate.cjs, from tsc's output (dist/):
 * src/cli/validate-entry.ts, every module it reaches and the packages they use, except esbuild
 * (a native program with its own process). bin/graphspec.js runs `validate` from it with V8's
 * code cache (src/cli/validate-script.ts); every other command, and the package entry, load dist/
 * as tsc wrote it. Built from tsc's JavaScript, not from src/, so that it is the same code; its
 * source map goes through tsc's maps to src/*.ts.
 *
 * What a module of ours does with `import.meta.url` it does with its own file's URL in dist/ (so
 * `new URL("../../docs/…", import.meta.url)` still finds the docs), and a package it loads lazily
 * with `createRequire(import.meta.url)(…)` is bundled too and still loads only when called.
 * The packages are bundled as installed when the package is built: their versions are the ones
 * of that build until the next one.
 */
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { isBuiltin } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build, transform } from "esbuild";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const DIST = join(ROOT, "dist");
const OUT = join(DIST, "cli/validate.cjs");
// Replaced by the hash of what follows it; the same length, so the source map still fits.
const HEAD = `// graphspec validate script ${"0".repeat(16)}`;

/** A module of ours, with its `import.meta.url` and lazy `createRequire` as bundled code needs. */
const ourModules = {
  name: "graphspec-modules",
  setup(b) {
    b.onLoad({ filter: /\/dist\/.*\.js$/ }, async ({ path }) => {
      const text = await readFile(path, "utf8");
      if (!text.includes("import.meta")) return undefined;
      const url = `require("node:url").pathToFileURL(require("node:path").join(__dirname, ${JSON.stringify(relative(dirname(OUT), path))})).href`;
      const contents = text
        .replaceAll("createRequire(import.meta.url)(", "require(")
        .replaceAll("import.meta.url", url);
      if (contents.includes("import.meta"))
        throw new Error(`${path}: import.meta other than import.meta.url`);
      return { contents, loader: "js", resolveDir: dirname(path) };
    });
  },
};

/** `import("esbuild")` as `require`: the script has no `import()` (a script run by node:vm has no module loader). */
const esbuildOutside = {
  name: "esbuild-outside",
  setup(b) {
    b.onResolve({ filter: /^esbuild$/ }, (a) =>
      a.namespace === "esbuild-outside"
        ? { path: "esbuild", external: true }
        : { path: "esbuild", namespace: "esbuild-outside" },
    );
    b.onLoad({ filter: /.*/, namespace: "esbuild-outside" }, () => ({
      contents: 'module.exports = require("esbuild");',
      loader: "js",
    }));
  },
};

const result = await build({
  entryPoints: [join(DIST, "cli/validate-entry.js")],
  outfile: OUT,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  // A package's ES module build where it has one: jsonc-parser's CommonJS build is UMD, whose
  // require()s of its own files a bundler cannot see.
  mainFields: ["module", "main"],
  // A package's own `import.meta.url` (fdir's createRequire for its optional picomatch) is the
  // script's: what it requires resolves from the installed package's folder, as it did.
  banner: {
    js: `${HEAD}\nvar __graphspecScriptUrl = require("node:url").pathToFileURL(__filename).href;`,
  },
  define: { "import.meta.url": "__graphspecScriptUrl" },
  sourcemap: "linked",
  sourcesContent: false,
  legalComments: "eof",
  metafile: true,
  logLevel: "warning",
  plugins: [ourModules, esbuildOutside],
});

if (result.warnings.length)
  throw new Error("esbuild warned: the script may not run as its modules did");
const inputs = Object.keys(result.metafile.inputs);
const forbidden = inputs.filter((f) => /node_modules\/(@langchain|langchain|hono|@hono)\//.test(f));
if (forbidden.length) throw new Error(`validate's script must not hold ${forbidden.join(", ")}`);
const imports = Object.values(result.metafile.outputs).flatMap((o) => o.imports);
const outside = imports.filter((i) => i.external && !isBuiltin(i.path));
if (outside.some((i) => i.path !== "esbuild" || i.kind !== "require-call"))
  throw new Error(
    `validate's script loads ${outside.map((i) => `${i.kind} ${i.path}`).join(", ")}`,
  );

const text = await readFile(OUT, "utf8");
// A script run by node:vm has no module loader: an `import()` left in it (a computed specifier
// esbuild cannot bundle) would throw when reached. Comments aside, there must be none.
const { code: bare } = await transform(text, { minifyWhitespace: true, legalComments: "none" });
if (/\bimport\s*\(/.test(bare)) throw new Error("validate's script holds an import()");
const hash = createHash("sha256").update(text).digest("hex").slice(0, 16);
await writeFile(OUT, text.replace(HEAD, `// graphspec validate script ${hash}`));
