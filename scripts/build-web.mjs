#!/usr/bin/env node
/**
 * Builds the page `graphspec dev` serves at `/` (src/web) into dist/web: one ES module bundle
 * (Preact, the official `@langchain/langgraph-sdk` Client, dagre), its stylesheet and index.html.
 * Everything the page loads is in the package — no CDN — so it works offline.
 * esbuild because it is already a dependency (tools written in TypeScript) and bundles TSX in
 * well under a second.
 */
import { copyFile, mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(ROOT, "dist/web");
await mkdir(out, { recursive: true });
await build({
  entryPoints: [join(ROOT, "src/web/main.tsx")],
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  jsx: "automatic",
  jsxImportSource: "preact",
  minify: true,
  sourcemap: true,
  legalComments: "linked",
  outfile: join(out, "app.js"),
  logLevel: "warning",
});
await copyFile(join(ROOT, "src/web/index.html"), join(out, "index.html"));
await copyFile(join(ROOT, "src/web/style.css"), join(out, "style.css"));
