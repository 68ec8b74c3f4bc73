/**
 * The VS Code extension (editors/vscode) builds into a .vsix with `npm run vsix` — offline, as CI
 * builds it here — and the archive is what VS Code needs: the manifest activating on YAML and
 * JSON files with `main` pointing at the one bundled file, and that file requiring nothing but
 * `vscode` and Node's built-ins (a .vsix packaged with --no-dependencies has no node_modules).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { zipEntries } from "./support/zip-entries.js";

const ROOT = join(import.meta.dirname, "..");
let entries: Map<string, Buffer>;
let built: string;

beforeAll(() => {
  const run = spawnSync(process.execPath, [join(ROOT, "scripts", "build-vsix.mjs")], {
    cwd: ROOT,
    encoding: "utf8",
  });
  expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
  built = run.stdout.trim().split("\n").at(-1)!;
  entries = zipEntries(readFileSync(built));
}, 180_000);

describe("the VS Code extension's .vsix", () => {
  it("holds the manifest, the bundled extension, README and LICENSE — no sources, no node_modules", () => {
    expect(built).toMatch(/graphspec-vscode-\d+\.\d+\.\d+\.vsix$/);
    const names = [...entries.keys()].sort();
    expect(names).toEqual(
      expect.arrayContaining([
        "extension.vsixmanifest",
        "extension/package.json",
        "extension/dist/extension.js",
        "extension/LICENSE.txt",
      ]),
    );
    expect(names.filter((n) => /\/src\/|node_modules|\.ts$/.test(n))).toEqual([]);
  });

  it("activates on YAML and JSON files and starts dist/extension.js", () => {
    const manifest = JSON.parse(entries.get("extension/package.json")!.toString("utf8"));
    expect(manifest.activationEvents).toEqual(["onLanguage:yaml", "onLanguage:json"]);
    expect(manifest.main).toBe("./dist/extension.js");
    expect(manifest.engines.vscode).toMatch(/^\^1\.\d+\.\d+$/);
    expect(manifest.contributes.configuration.properties["graphspec.path"].type).toBe("string");
    const vsixManifest = entries.get("extension.vsixmanifest")!.toString("utf8");
    expect(vsixManifest).toContain('Id="graphspec-vscode"');
    expect(vsixManifest).toContain('Publisher="graphspec"');
  });

  it("extension.js requires only `vscode` and Node's built-ins, and starts `graphspec lsp`", () => {
    const code = entries.get("extension/dist/extension.js")!.toString("utf8");
    const required = new Set(
      [...code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]!),
    );
    expect(required.has("vscode")).toBe(true);
    const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    expect([...required].filter((m) => m !== "vscode" && !builtins.has(m))).toEqual([]);
    // No dynamic import of a package either.
    expect(code).not.toMatch(/\bimport\(\s*["'][^"'.]/);
    expect(code).toContain('"lsp"');
    expect(code).toMatch(/node_modules.*\.bin|\.bin.*graphspec/);
  });
});
