#!/usr/bin/env node
/**
 * Builds the page `graphspec dev` serves at `/` (src/web) into dist/web: one ES module bundle
 * (Preact, the official `@langchain/langgraph-sdk` Client, dagre), its stylesheet and index.html.
 * Everything the page loads is in the package — no CDN — so it works offline.
 * esbuild because it is already a dependency (tools written in TypeScript) and bundles TSX in
 * well under a second.
 *
 * The script and stylesheet are named by a hash of their content (`app-3KX7Q2ZL.js`), so the
 * server can let browsers keep them for a year (`immutable`): a new build is new names, which the
 * new index.html points at. Each file is also written compressed, as `.br` (brotli, quality 11)
 * and `.gz` (gzip, level 9), with node:zlib — done once here, not per request nor per start
 * (brotli's best quality takes about a second for the script).
 * `manifest.json` lists what the server serves; it reads nothing else from this folder.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { build } from "esbuild";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(ROOT, "dist/web");
// Old hashed names would otherwise pile up build after build.
await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
const result = await build({
  entryPoints: [join(ROOT, "src/web/main.tsx"), join(ROOT, "src/web/style.css")],
  entryNames: "[name]-[hash]",
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  jsx: "automatic",
  jsxImportSource: "preact",
  minify: true,
  sourcemap: true,
  legalComments: "linked",
  outdir: out,
  metafile: true,
  logLevel: "warning",
});
const outputs = Object.entries(result.metafile.outputs).map(([path, o]) => ({
  name: basename(path),
  entry: o.entryPoint,
}));
const named = (entry) => {
  const hit = outputs.find((o) => o.entry === entry);
  if (!hit) throw new Error(`build-web: no output for ${entry}`);
  return hit.name;
};
const script = named("src/web/main.tsx");
const style = named("src/web/style.css");
const html = (await readFile(join(ROOT, "src/web/index.html"), "utf8"))
  .replace('href="/ui/style.css"', `href="/ui/${style}"`)
  .replace('src="/ui/app.js"', `src="/ui/${script}"`);
if (!html.includes(script) || !html.includes(style))
  throw new Error("build-web: index.html no longer names /ui/app.js and /ui/style.css");
await writeFile(join(out, "index.html"), html);

const files = ["index.html", ...outputs.map((o) => o.name)];
// Source maps and the licence text are read by developer tools and people, not by the page.
for (const name of files.filter((f) => /\.(html|js|css)$/.test(f))) {
  const body = await readFile(join(out, name));
  await writeFile(
    join(out, `${name}.br`),
    brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  );
  await writeFile(join(out, `${name}.gz`), gzipSync(body, { level: 9 }));
}
await writeFile(join(out, "manifest.json"), `${JSON.stringify({ files }, null, 2)}\n`);
