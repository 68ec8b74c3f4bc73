/**
 * `graphspec draw` through the built CLI (`node bin/graphspec.js`, dist/: run `npm run build`
 * first): Mermaid to stdout, SVG and PNG to files, what it says about a spec with errors or
 * warnings, and its usage errors. The PNG is decoded (test/support/png-pixels.ts) and looked at:
 * its size follows the layout, and a node's name is drawn in dark pixels, so text was rendered.
 */
import { spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { layoutGraph } from "../src/draw/layout.js";
import { graphDrawing } from "../src/server/graph-drawing.js";
import { loadSpec } from "../src/spec/load.js";
import type { GraphSpec } from "../src/spec/spec-types.generated.js";
import { MINIMAL_SPEC } from "./helpers.js";
import { decodePng, PNG_SIGNATURE } from "./support/png-pixels.js";

const ROOT = join(import.meta.dirname, "..");
const BIN = join(ROOT, "bin", "graphspec.js");
const FIXTURES = join(ROOT, "test", "fixtures", "drawing");

interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
}

let tmp: string;
let counter = 0;
beforeAll(() => {
  if (!existsSync(join(ROOT, "dist", "cli", "main.js")))
    throw new Error("dist/ is missing: run `npm run build` before the CLI tests");
  tmp = mkdtempSync(join(tmpdir(), "graphspec-draw-"));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A fresh project (a package.json marks its root) holding `files`. */
function project(files: Record<string, string>): string {
  const dir = join(tmp, `p${++counter}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), "{}");
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

/** The drawing fixtures (every edge form, a subgraph) in a project of their own. */
function fixtureProject(): string {
  const dir = project({});
  cpSync(FIXTURES, join(dir, "graphs"), { recursive: true });
  return dir;
}

function run(args: string[], cwd: string): Promise<Result> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    delete env.FORCE_COLOR;
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...env, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (b) => (stdout += b));
    child.stderr.on("data", (b) => (stderr += b));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

describe.concurrent("graphspec draw", () => {
  it("prints Mermaid flowchart text by default, for a file or a graph name in graphs/", async () => {
    const dir = project({ "graphs/minimal.yaml": MINIMAL_SPEC });
    for (const arg of ["graphs/minimal.yaml", "minimal"]) {
      const r = await run(["draw", arg], dir);
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/^flowchart TD\n/);
      expect(r.stdout).toContain('n___start__(["START"])');
      expect(r.stdout).toContain('n___end__(["END"])');
    }
  });

  it("draws a spec with warnings, and prints them: file:line:col, rule", async () => {
    const r = await run(["draw", "graphs/everything.yaml"], fixtureProject());
    expect(r.status).toBe(0);
    expect(r.stderr).toContain(
      "graphs/everything.yaml:30:3: warning: node `orphan` is unreachable",
    );
    expect(r.stdout).toContain("unreachable");
    expect(r.stdout).toContain('n_triage -.->|"state.urgent"| n_ask');
  });

  it("refuses a spec with errors: its diagnostics (file:line:col) and exit 1, nothing drawn", async () => {
    const dir = project({
      "bad.yaml": MINIMAL_SPEC.replace("name: minimal", "name: Minimal"),
      "broken.yaml": "version: 1\nname: [unclosed\n",
    });
    for (const [file, at] of [
      ["bad.yaml", "bad.yaml:2:7: error"],
      ["broken.yaml", "broken.yaml:3:1: error"],
    ] as const) {
      for (const format of ["mermaid", "svg"]) {
        const r = await run(["draw", file, "-f", format], dir);
        expect(r.status, `${file} ${format}`).toBe(1);
        expect(r.stdout).toBe("");
        expect(r.stderr).toContain(at);
        expect(r.stderr).toContain(`graphspec draw: ${file} has `);
        expect(r.stderr).not.toMatch(/\n\s+at /);
      }
    }
  });

  it("usage errors (exit 2): an unknown format with the choices, png without --out, no spec, a missing one", async () => {
    const dir = project({ "graphs/minimal.yaml": MINIMAL_SPEC });
    const cases: [string[], RegExp][] = [
      [["draw", "minimal", "-f", "gif"], /--format must be one of mermaid, svg, png, not "gif"/],
      [["draw", "minimal", "-f", "png"], /--format png writes an image: give --out FILE/],
      [["draw"], /draw takes one spec file or graph name/],
      [["draw", "nope"], /no spec file "nope" \(nor graphs\/nope\.yaml, \.yml or \.json\)/],
      [
        ["draw", "minimal", "-f", "svg", "-o", "no/such/dir/x.svg"],
        /cannot write --out no\/such\/dir\/x\.svg/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await run(args, dir);
      expect(r.status, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toContain("internal error");
      expect(r.stdout).toBe("");
    }
  });

  it("docs/cli.md shows what `graphspec draw support-triage` prints", async () => {
    const doc = readFileSync(join(ROOT, "docs", "cli.md"), "utf8");
    const section = doc.slice(doc.indexOf("## `graphspec draw`"));
    const block = /```mermaid\n([\s\S]*?)```/.exec(section)?.[1];
    const r = await run(["draw", "support-triage"], ROOT);
    expect(r.status).toBe(0);
    expect(block).toBe(r.stdout);
  });

  it("writes an SVG document to --out, or to stdout", async () => {
    const dir = fixtureProject();
    const r = await run(
      ["draw", "graphs/everything.yaml", "-f", "svg", "--xray", "-o", "out.svg"],
      dir,
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("");
    const svg = readFileSync(join(dir, "out.svg"), "utf8");
    expect(svg).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/,
    );
    // xray: the subgraph's nodes are drawn inside it.
    expect(svg).toContain('data-cluster-id="sub"');
    const out = await run(["draw", "graphs/everything.yaml", "-f", "svg"], dir);
    expect(out.stdout).toMatch(/^<\?xml/);
    expect(out.stdout).not.toContain('data-cluster-id="sub"');
  });

  it("tells conditions that begin alike apart, in SVG (as in PNG) and Mermaid, and names nodes whole", async () => {
    const dir = fixtureProject();
    const labels = (text: string, pattern: RegExp) =>
      [...text.matchAll(pattern)].map((m) => m[1]!).filter((l) => l.startsWith("state.categor"));
    const svg = (await run(["draw", "graphs/long-routes.yaml", "-f", "svg"], dir)).stdout;
    const inSvg = labels(svg, /<text[^>]*font-family="ui-monospace[^>]*>([^<]*)<\/text>/g);
    expect(inSvg).toHaveLength(2);
    expect(new Set(inSvg).size).toBe(2);
    const mermaid = (await run(["draw", "graphs/long-routes.yaml"], dir)).stdout;
    const inMermaid = labels(mermaid, /\|"([^"]*)"\|/g);
    expect(inMermaid).toHaveLength(2);
    expect(new Set(inMermaid).size).toBe(2);
    expect(mermaid).toContain(
      '["classify_the_incoming_support_ticket_by_category_and_urgency_for_routing<br/>set"]',
    );
  });

  it("renders a PNG: its signature, twice the layout's size, and the nodes' names in dark pixels", async () => {
    const dir = fixtureProject();
    const r = await run(["draw", "graphs/everything.yaml", "-f", "png", "--out", "g.png"], dir);
    expect(r.status).toBe(0);
    expect(r.stderr).not.toContain("no fonts");
    const bytes = readFileSync(join(dir, "g.png"));
    expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    const path = join(dir, "graphs", "everything.yaml");
    const layout = layoutGraph(
      await graphDrawing({ path, spec: (await loadSpec(path)).data as GraphSpec }),
    );
    const image = decodePng(bytes);
    expect(image.width).toBe(layout.width * 2);
    expect(image.height).toBe(layout.height * 2);
    // Far darker than any node's fill (light colours, each channel above 220), even through an
    // unreachable node's 60% opacity.
    const dark = ([r, g, b]: number[]) => r! + g! + b! < 400;
    // Each node's name line (19 px below its top, 13 px text) holds dark pixels: the fill around
    // it is light, so they are the name's glyphs.
    for (const n of layout.nodes.filter((n) => n.kind !== "start" && n.kind !== "end")) {
      let count = 0;
      const top = n.y - n.height / 2;
      for (let y = Math.round((top + 9) * 2); y < Math.round((top + 21) * 2); y++)
        for (let x = Math.round((n.x - 20) * 2); x < Math.round((n.x + 20) * 2); x++)
          if (dark(image.at(x, y))) count++;
      expect(count, n.id).toBeGreaterThan(20);
    }
    // The arrowhead into the first node points down its edge: wide above the tip, narrow at it.
    const first = layout.edges.find((e) => e.source === "__start__")!;
    const tip = first.points.at(-1)!;
    const width = (y: number) => {
      let count = 0;
      for (let x = Math.round((tip.x - 15) * 2); x < Math.round((tip.x + 15) * 2); x++)
        if (dark(image.at(x, Math.round(y * 2)))) count++;
      return count;
    };
    expect(width(tip.y - 7)).toBeGreaterThan(width(tip.y - 1) + 4);
    // Not a blank image: most of it is the white background, and not all of it.
    let white = 0;
    for (let i = 0; i < image.data.length; i += 4)
      if (image.data[i] === 255 && image.data[i + 1] === 255 && image.data[i + 2] === 255) white++;
    const pixels = image.width * image.height;
    expect(white).toBeGreaterThan(pixels / 2);
    expect(white).toBeLessThan(pixels * 0.98);
  });
});
