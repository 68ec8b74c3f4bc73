#!/usr/bin/env node
/**
 * Builds the VS Code extension (editors/vscode) into a .vsix: type-checks its source, bundles it
 * with esbuild into one CommonJS file, dist/extension.js (vscode-languageclient inside; `vscode`
 * is the editor's own), and packages that with vsce, the standard packager, offline: no
 * dependencies to list (`--no-dependencies`: the bundle has them), no repository to link.
 * Prints the .vsix's path. `npm run vsix`.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const EXT = join(ROOT, "editors", "vscode");
const { name, version } = JSON.parse(readFileSync(join(EXT, "package.json"), "utf8"));
const vsix = join(EXT, `${name}-${version}.vsix`);

const run = (command, args, cwd = ROOT) => {
  const r = spawnSync(command, args, { cwd, stdio: "inherit" });
  if (r.status !== 0) {
    console.error(`build-vsix: ${[command, ...args].join(" ")} failed (${r.status ?? r.signal})`);
    process.exit(1);
  }
};

run(process.execPath, [
  join(ROOT, "node_modules/typescript/bin/tsc"),
  "-p",
  join(EXT, "tsconfig.json"),
]);
rmSync(join(EXT, "dist"), { recursive: true, force: true });
await build({
  entryPoints: [join(EXT, "src/extension.ts")],
  outfile: join(EXT, "dist/extension.js"),
  bundle: true,
  platform: "node",
  format: "cjs",
  // VS Code 1.82 runs extensions on Node 18.
  target: "node18",
  minify: true,
  external: ["vscode"],
  logLevel: "warning",
});
run(
  process.execPath,
  [
    join(ROOT, "node_modules/@vscode/vsce/vsce"),
    "package",
    "--no-dependencies",
    "--allow-missing-repository",
    "--out",
    vsix,
  ],
  EXT,
);
console.log(vsix);
