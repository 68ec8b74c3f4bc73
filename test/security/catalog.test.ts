/**
 * A spec's catalog is read only from inside the project: a path or a symbolic link that leads out
 * is a `path-escape` and nothing of the file is used; a catalog's module paths may not leave the
 * project either (checked from the catalog's folder), and compile refuses such a spec.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CompileError, compile, readSpec, validate } from "../../src/index.js";

const top = mkdtempSync(join(tmpdir(), "graphspec-catalog-attack-"));
afterAll(() => rmSync(top, { recursive: true, force: true }));
const dir = join(top, "project");
mkdirSync(join(dir, "graphs"), { recursive: true });
mkdirSync(join(dir, "shared"), { recursive: true });
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(top, "elsewhere"));
writeFileSync(join(top, "elsewhere", "evil.mjs"), "export default () => 'pwned';\n");
const outsideCatalog = join(top, "elsewhere", "catalog.yaml");
writeFileSync(
  outsideCatalog,
  "tools:\n  shout: { module: evil.mjs, description: x, schema: { type: object } }\n",
);
symlinkSync(outsideCatalog, join(dir, "shared", "link.yaml"));
writeFileSync(
  join(dir, "shared", "climbs.yaml"),
  "tools:\n  shout: { module: ../../elsewhere/evil.mjs, description: x, schema: { type: object } }\n",
);
const specUsing = (name: string, catalog: string) => {
  const path = join(dir, "graphs", `${name}.yaml`);
  writeFileSync(
    path,
    `version: 1
name: ${name}
catalog: ${catalog}
state:
  out: { type: string, default: "" }
nodes:
  call: { kind: tool, tool: shout, args: {}, write: out }
edges:
  - { from: START, to: call }
  - { from: call, to: END }
`,
  );
  return path;
};
const findings = async (path: string) =>
  (await validate(await readSpec(path, { root: dir, file: path.slice(dir.length + 1) }))).map(
    (d) => `${d.file}:${d.line} [${d.rule}] ${d.message}`,
  );

describe("a catalog outside the project", () => {
  it("through a symbolic link: path-escape at `catalog:`, and none of its tools is taken", async () => {
    const lines = await findings(specUsing("linked", "../shared/link.yaml"));
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^graphs\/linked\.yaml:3 \[path-escape\] catalog `\.\.\/shared\/link\.yaml`: .*symbolic link/,
      ),
    );
    expect(lines).toContainEqual(expect.stringMatching(/\[unknown-tool\] tool `shout`/));
  });

  it("a catalog's module that climbs out is a path-escape in the catalog, and compile refuses", async () => {
    const spec = specUsing("climbing", "../shared/climbs.yaml");
    expect(await findings(spec)).toContainEqual(
      expect.stringMatching(
        /^shared\/climbs\.yaml:2 \[path-escape\] module `\.\.\/\.\.\/elsewhere\/evil\.mjs`/,
      ),
    );
    await expect(compile(spec)).rejects.toBeInstanceOf(CompileError);
  });
});
