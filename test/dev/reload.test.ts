/**
 * Hot reload through createDevExecutor: real files, real chokidar, real SQLite. Every wait is on a
 * condition (an event reported, a version served), never on time.
 */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createDevExecutor } from "../../src/dev/dev-executor.js";
import { markingSpec, project, recorder, until } from "./project.js";

const p = project("dev");
afterAll(() => p.remove());

const slow = `export default async () => {
  await globalThis.graphspecGate;
  return { marks: ["slow"] };
};
`;

describe("graphspec dev: versions", () => {
  it("a run in flight finishes on its version while new runs get the new one", async () => {
    const dir = join(p.root, "a");
    p.write("a/slow.mjs", slow);
    const spec = p.write("a/marking.yaml", markingSpec("v1"));
    const r = recorder();
    const dev = createDevExecutor({ dir, sqlitePath: join(p.root, "a.db"), onReload: r.onReload });
    await dev.ready;
    expect(dev.versionOf("marking")).toBe(1);
    let open!: () => void;
    (globalThis as { graphspecGate?: Promise<void> }).graphspecGate = new Promise<void>((o) => {
      open = o;
    });
    const inFlight = dev.executor.run("marking");
    p.write("a/marking.yaml", markingSpec("v2"));
    await until(() => dev.versionOf("marking") === 2);
    expect(r.events.filter((e) => e.type === "reloaded").at(-1)).toMatchObject({
      path: spec,
      version: 2,
    });
    open();
    const fresh = await dev.executor.run("marking");
    expect(fresh.output.marks).toEqual(["v2", "slow", "v2"]);
    expect((await inFlight).output.marks).toEqual(["v1", "slow", "v1"]);
    await dev.close();
  });

  it("an invalid change keeps the last good version and says why, at its position; the fix brings the new one", async () => {
    const dir = join(p.root, "b");
    p.write("b/slow.mjs", "export default () => ({ marks: ['slow'] });\n");
    p.write("b/marking.yaml", markingSpec("v1"));
    const r = recorder();
    const dev = createDevExecutor({ dir, sqlitePath: join(p.root, "b.db"), onReload: r.onReload });
    await dev.ready;
    p.write("b/marking.yaml", markingSpec("v2", "lats"));
    await until(() => r.count("rejected") === 1);
    const rejected = r.events.find((e) => e.type === "rejected");
    expect(rejected).toMatchObject({
      kept: 1,
      diagnostics: [
        expect.objectContaining({ rule: "unknown-node", line: 13, column: 23, severity: "error" }),
      ],
    });
    expect((await dev.executor.run("marking")).output.marks).toEqual(["v1", "slow", "v1"]);
    p.write("b/marking.yaml", markingSpec("v3"));
    await until(() => dev.versionOf("marking") === 2);
    expect((await dev.executor.run("marking")).output.marks).toEqual(["v3", "slow", "v3"]);
    await dev.close();
  });

  it("a changed module (JavaScript and TypeScript) takes effect without a restart; same content, same version", async () => {
    const dir = join(p.root, "c");
    p.write("c/slow.mjs", "export default () => ({ marks: ['js1'] });\n");
    p.write("c/typed.ts", "export default (): { marks: string[] } => ({ marks: ['ts1'] });\n");
    p.write(
      "c/marking.yaml",
      markingSpec("v1")
        .replace(
          "  last:",
          "  typed: { kind: function, module: ./typed.ts, writes: [marks] }\n  last:",
        )
        .replace(
          "{ from: slow, to: last }",
          "{ from: slow, to: typed }\n  - { from: typed, to: last }",
        ),
    );
    const r = recorder();
    const dev = createDevExecutor({ dir, sqlitePath: join(p.root, "c.db"), onReload: r.onReload });
    await dev.ready;
    expect((await dev.executor.run("marking")).output.marks).toEqual(["v1", "js1", "ts1", "v1"]);
    p.write("c/slow.mjs", "export default () => ({ marks: ['js2'] });\n");
    await until(() => dev.versionOf("marking") === 2);
    p.write("c/typed.ts", "export default (): { marks: string[] } => ({ marks: ['ts2'] });\n");
    await until(() => dev.versionOf("marking") === 3);
    expect((await dev.executor.run("marking")).output.marks).toEqual(["v1", "js2", "ts2", "v1"]);
    // Back to the first contents: the versions already loaded serve again, nothing new is held.
    p.write("c/slow.mjs", "export default () => ({ marks: ['js1'] });\n");
    await until(() => dev.versionOf("marking") === 4);
    p.write("c/typed.ts", "export default (): { marks: string[] } => ({ marks: ['ts1'] });\n");
    await until(() => dev.versionOf("marking") === 5);
    expect((await dev.executor.run("marking")).output.marks).toEqual(["v1", "js1", "ts1", "v1"]);
    expect(dev.moduleVersionCount()).toBe(4);
    await dev.close();
  });

  it("a changed subgraph reloads the graph that mounts it", async () => {
    const dir = join(p.root, "d");
    p.write("d/slow.mjs", "export default () => ({ marks: ['slow'] });\n");
    p.write("d/parts/child.yaml", markingSpec("c1").replace("./slow.mjs", "../slow.mjs"));
    p.write(
      "d/parent.yaml",
      `version: 1
name: parent
state:
  marks: { type: array, items: { type: string }, reducer: append, default: [] }
nodes:
  inner: { kind: subgraph, graph: ./parts/child.yaml }
edges:
  - { from: START, to: inner }
  - { from: inner, to: END }
`,
    );
    const r = recorder();
    const dev = createDevExecutor({ dir, sqlitePath: join(p.root, "d.db"), onReload: r.onReload });
    await dev.ready;
    expect((await dev.executor.run("parent")).output.marks).toContain("c1");
    p.write("d/parts/child.yaml", markingSpec("c2").replace("./slow.mjs", "../slow.mjs"));
    await until(() => dev.versionOf("parent") === 2);
    const marks = (await dev.executor.run("parent")).output.marks as string[];
    expect(marks).toContain("c2");
    expect(marks).not.toContain("c1");
    await dev.close();
  });

  it("a changed catalog, or a module it names, reloads the graphs that take tools from it", async () => {
    const dir = join(p.root, "cat", "graphs");
    const tool = (mark: string) => `export default () => "${mark}";\n`;
    p.write("cat/shared/mark-a.mjs", tool("a1"));
    p.write("cat/shared/mark-b.mjs", tool("b1"));
    const catalog = (module: string) => `tools:
  mark:
    module: ${module}
    description: Says which version ran.
    schema: { type: object, properties: {} }
`;
    p.write("cat/shared/catalog.yaml", catalog("./mark-a.mjs"));
    p.write(
      "cat/graphs/marking.yaml",
      `version: 1
name: marking
catalog: ../shared/catalog.yaml
state:
  marks: { type: array, items: { type: string }, reducer: append, default: [] }
nodes:
  call: { kind: tool, tool: mark, args: {}, write: { marks: ["\${{ string(result) }}"] } }
edges:
  - { from: START, to: call }
  - { from: call, to: END }
`,
    );
    const r = recorder();
    const dev = createDevExecutor({
      dir,
      sqlitePath: join(p.root, "cat.db"),
      onReload: r.onReload,
    });
    await dev.ready;
    expect((await dev.executor.run("marking")).output.marks).toEqual(["a1"]);
    // The module the catalog names, resolved from the catalog's folder.
    p.write("cat/shared/mark-a.mjs", tool("a2"));
    await until(() => dev.versionOf("marking") === 2);
    expect((await dev.executor.run("marking")).output.marks).toEqual(["a2"]);
    // The catalog itself.
    p.write("cat/shared/catalog.yaml", catalog("./mark-b.mjs"));
    await until(() => dev.versionOf("marking") === 3);
    expect((await dev.executor.run("marking")).output.marks).toEqual(["b1"]);
    await dev.close();
  });

  it("a save right after a reload is not lost (chokidar passes one change per file per 50 ms)", async () => {
    const dir = join(p.root, "e");
    p.write("e/slow.mjs", "export default () => ({ marks: ['slow'] });\n");
    p.write("e/marking.yaml", markingSpec("v1"));
    const r = recorder();
    // No debounce: the second save then comes well within chokidar's 50 ms of the first change.
    const dev = createDevExecutor({
      dir,
      sqlitePath: join(p.root, "e.db"),
      onReload: r.onReload,
      debounceMs: 0,
    });
    await dev.ready;
    for (let round = 1; round <= 5; round++) {
      const before = dev.versionOf("marking")!;
      p.write("e/marking.yaml", markingSpec(`a${round}`));
      await until(() => dev.versionOf("marking") === before + 1);
      // At once: within chokidar's 50 ms of the first change, when the reload is quick.
      p.write("e/marking.yaml", markingSpec(`b${round}`));
      await until(async () => {
        const marks = (await dev.executor.run("marking")).output.marks as string[];
        return marks[0] === `b${round}`;
      });
    }
    await dev.close();
  });

  it("a save is built once though chokidar tells of it after the look again took it (a busy process)", async () => {
    const dir = join(p.root, "f");
    p.write("f/slow.mjs", "export default () => ({ marks: ['slow'] });\n");
    p.write("f/marking.yaml", markingSpec("v1"));
    const dev = createDevExecutor({ dir, sqlitePath: join(p.root, "f.db"), debounceMs: 0 });
    await dev.ready;
    const firstMark = async () => ((await dev.executor.run("marking")).output.marks as string[])[0];
    for (let round = 1; round <= 10; round++) {
      const before = dev.versionOf("marking")!;
      p.write("f/marking.yaml", markingSpec(`a${round}`));
      await until(() => dev.versionOf("marking") === before + 1);
      // The process busy past the look again's 75 ms: it takes the save before chokidar's event
      // for it is handled, and that event comes after (the reload proof, under load).
      p.write("f/marking.yaml", markingSpec(`bb${round}`));
      const busyUntil = performance.now() + 100;
      while (performance.now() < busyUntil) {}
      await until(() => dev.versionOf("marking")! >= before + 2);
      // A third save, served: the late event, if any, was handled before it.
      p.write("f/marking.yaml", markingSpec(`ccc${round}`));
      await until(async () => (await firstMark()) === `ccc${round}`);
      await dev.idle();
      // One version per save: the late event built the second save again (5 for 4).
      expect(dev.versionOf("marking"), `round ${round}`).toBe(before + 3);
    }
    await dev.close();
  });
});
