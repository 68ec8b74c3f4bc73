/**
 * Validation in a plain Node process, as the CLI runs it (no vitest module runner in between):
 * validate imports neither the specs' modules nor `@langchain/*` (it parses modules); compile
 * imports them (the recorder sees it); with `loadModules`, JavaScript modules load through Node's
 * own import, in a process of their own.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const FIXTURES = join(import.meta.dirname, "fixtures");

/**
 * Runs validate on the specs in a fresh Node process (TypeScript through tsx) and records every URL
 * the process resolves, with a module-resolution hook that reports to the main thread.
 */
const CHILD = `
import { register } from "node:module";
import { MessageChannel } from "node:worker_threads";
const { port1, port2 } = new MessageChannel();
const resolved = [];
port1.on("message", (url) => resolved.push(url));
port1.unref();
const hooks = \`
let port;
export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  port.postMessage(result.url);
  return result;
}\`;
register("data:text/javascript," + encodeURIComponent(hooks), {
  data: { port: port2 },
  transferList: [port2],
});
const { compile, readSpec, validate } = await import(process.env.GS_INDEX);
const options = JSON.parse(process.env.GS_OPTIONS);
const diagnostics = {};
for (const file of JSON.parse(process.env.GS_SPECS)) {
  const doc = await readSpec(file, { root: process.env.GS_ROOT });
  diagnostics[file] = (await validate(doc, options)).map((d) => d.rule + ": " + d.message);
  if (process.env.GS_COMPILE) await compile(doc, { scripts: { [doc.data.name]: [] } });
}
// Resolutions are reported asynchronously: wait for one made after the validation.
const sentinel = "data:text/javascript,export default 'sentinel'";
await import(sentinel);
while (!resolved.includes(sentinel)) await new Promise((r) => setTimeout(r, 5));
console.log(JSON.stringify({ diagnostics, resolved }));
`;

const run = promisify(execFile);

async function validateInNode(
  specs: string[],
  { root = FIXTURES, options = {}, compile = false } = {},
): Promise<{ diagnostics: Record<string, string[]>; resolved: string[] }> {
  const { stdout } = await run(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", CHILD],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        GS_INDEX: join(ROOT, "src/index.ts"),
        GS_SPECS: JSON.stringify(specs),
        GS_ROOT: root,
        GS_OPTIONS: JSON.stringify(options),
        GS_COMPILE: compile ? "1" : "",
      },
    },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1)!);
}

const langchain = (urls: string[]) => urls.filter((u) => u.includes("/@langchain/"));
const userModules = (urls: string[]) => urls.filter((u) => u.includes("/test/fixtures/modules/"));

describe("validation in a plain Node process", () => {
  const specs = [
    "ref-code.yaml",
    "ref-subgraph.yaml",
    "ref-schemas.yaml",
    "ref-plain-tools.yaml",
    "ref-tools.yaml",
  ].map((s) => join(FIXTURES, "valid", s));

  it("imports neither the specs' modules nor @langchain/*, even for LangChain tools", async () => {
    const { diagnostics, resolved } = await validateInNode(specs);
    expect(Object.values(diagnostics).flat()).toEqual([]);
    expect(userModules(resolved)).toEqual([]);
    expect(langchain(resolved)).toEqual([]);
  });

  it("compile imports them, and the recorder sees it", async () => {
    const { resolved } = await validateInNode([join(FIXTURES, "valid", "ref-tools.yaml")], {
      compile: true,
    });
    expect(userModules(resolved).some((u) => u.endsWith("/tools.ts"))).toBe(true);
    expect(langchain(resolved).length).toBeGreaterThan(0);
  });

  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("with loadModules, reports a JavaScript syntax error as Node gives it, first line only", async () => {
    const root = mkdtempSync(join(tmpdir(), "graphspec-node-"));
    dirs.push(root);
    writeFileSync(join(root, "package.json"), '{ "type": "module" }\n');
    writeFileSync(join(root, "route.mjs"), "export default function (state) {\n  return ;;)\n}\n");
    writeFileSync(
      join(root, "spec.yaml"),
      `version: 1
name: p
state:
  n: { type: integer }
nodes:
  a: { kind: set, values: { n: 1 } }
edges:
  - { from: START, to: a }
  - from: a
    router: { module: ./route.mjs, to: [END] }
`,
    );
    const { diagnostics, resolved } = await validateInNode([join(root, "spec.yaml")], {
      root,
      options: { loadModules: true },
    });
    // Loaded in a process of its own: this one never resolved it.
    expect(resolved.filter((u) => u.endsWith("/route.mjs"))).toEqual([]);
    expect(Object.values(diagnostics).flat()).toEqual([
      "unknown-module: module `./route.mjs` failed to load: SyntaxError: Unexpected token ')'",
    ]);
  });
});
