/**
 * A project installed on one Node.js and run on another: better-sqlite3 (the SQLite checkpointer's
 * native addon) was built for the first. The CLI and the package entry name the package and the one
 * command that rebuilds it, exit 2, no stack. Needs a second Node of another ABI than the addon's:
 * `.ci/run` passes it as GRAPHSPEC_OTHER_NODE (the machine's Node on the Node 24 run, Node 24 on
 * the other); elsewhere the test is skipped unless CI is set.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { BIN, graphspecIn, ROOT, scratchDir } from "../support/cli.js";

const other = process.env.GRAPHSPEC_OTHER_NODE;
const abiOf = (node: string) =>
  spawnSync(node, ["-p", "process.versions.modules"], { encoding: "utf8" }).stdout.trim();
const otherAbi = other ? abiOf(other) : "";
const usable = Boolean(other) && otherAbi !== "" && otherAbi !== process.versions.modules;

if (process.env.CI && !usable)
  throw new Error(
    `CI must give GRAPHSPEC_OTHER_NODE, a Node.js of another ABI than ${process.version} (got ${other || "none"})`,
  );

const SPEC = `version: 1
name: hello
state:
  greeting: { type: string }
nodes:
  greet: { kind: set, values: { greeting: "hello" } }
edges:
  - { from: START, to: greet }
  - { from: greet, to: END }
`;

describe.skipIf(!usable)("better-sqlite3 built for another Node.js", () => {
  const dir = scratchDir("native-addon");
  writeFileSync(join(dir, "hello.yaml"), SPEC);
  const onOtherNode = (...args: string[]) =>
    spawnSync(other as string, args, {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });

  it("runs on the Node it was built for (the control)", () => {
    const r = graphspecIn(dir)("run", "hello.yaml");
    expect(r.stderr).not.toMatch(/NODE_MODULE_VERSION/);
    expect(r.status).toBe(0);
  });

  it("graphspec run on another Node: exit 2, the package, the Node versions and the rebuild command", () => {
    const r = onOtherNode(BIN, "run", "hello.yaml");
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `better-sqlite3 was built for Node\\.js \\d+ \\(NODE_MODULE_VERSION ${process.versions.modules}\\); this is Node\\.js v[\\d.]+ \\(NODE_MODULE_VERSION ${otherAbi}\\)`,
      ),
    );
    expect(r.stderr).toContain("hint: rebuild it for this Node.js: npm rebuild better-sqlite3");
    expect(r.stderr).not.toMatch(/internal error|Please report this|\n\s+at /);
  });

  it("the package entry rejects with a PackageError naming the package", () => {
    const entry = pathToFileURL(join(ROOT, "dist", "index.js")).href;
    const program = `
      const { createExecutor, PackageError } = await import(${JSON.stringify(entry)});
      const executor = createExecutor({ dir: ${JSON.stringify(dir)}, sqlitePath: ${JSON.stringify(join(dir, "state.db"))} });
      try {
        await executor.run("hello", {});
        console.log("ran");
      } catch (e) {
        console.log(JSON.stringify({ isPackageError: e instanceof PackageError, packages: e.packages, hint: e.hint }));
      } finally {
        await executor.close?.();
      }`;
    const r = onOtherNode("--input-type=module", "-e", program);
    expect(JSON.parse(r.stdout.trim().split("\n").at(-1) as string)).toEqual({
      isPackageError: true,
      packages: ["better-sqlite3"],
      hint: "rebuild it for this Node.js: npm rebuild better-sqlite3",
    });
  });
});
