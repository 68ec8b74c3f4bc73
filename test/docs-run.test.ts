/**
 * Docs that run: every ```ts and ```sh block of README.md and docs/**\/*.md is run against the
 * built package (`npm run build` first), as a user who installed it would run it, so the docs
 * cannot promise what the package does not do or export. The convention (docs/testing.md,
 * "Docs that run"):
 *
 * - Each markdown file gets a scratch folder of its own: a copy of graphs/ and tools/, a
 *   package.json with `"type": "module"`, and node_modules/ holding `graphspec` (a link to this
 *   repository, so `import … from "graphspec"` goes through package.json `exports` to dist/),
 *   graphspec's own dependencies (linked, as npm hoists them: `@langchain/langgraph`, `zod`, …),
 *   the MCP peers the examples' server needs, and `.bin/graphspec` (bin/graphspec.js); and the
 *   repository's graphspec.lock.json. Its blocks run in order there, so a block may go on
 *   from the one before it (`resume` after `run`); files do not see each other's state, and
 *   run side by side.
 * - ```ts (`typescript`) blocks are written to a file and run once with tsx as ES modules (top-level
 *   await works). All of them, each its own module, are also type-checked by one `tsc --noEmit`
 *   against the built .d.ts.
 * - ```sh (`bash`, `shell`) blocks run with `bash -e -o pipefail`, with node_modules/.bin first on
 *   PATH (so `graphspec` and `npx graphspec` are the built CLI) and `NO_COLOR=1`; each must exit 0.
 *   `DATABASE_URL` names a fresh database (one per markdown file) on the test suite's PostgreSQL
 *   server; a block that
 *   mentions postgres is skipped when there is no server.
 * - `<!-- not run: <why> -->` on the line before a fence skips the block (and says why); an
 *   output listing is a ```text block. Every fenced block names its language, so a shell example
 *   cannot hide in a block without one.
 * - Each block has BLOCK_MS to finish; its process group is killed after it, so a server it
 *   starts in the background does not outlive it.
 */
import { spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CodeBlock, codeBlocks } from "./support/markdown-blocks.js";
import { freshDatabase, serverUrl } from "./support/postgres.js";

const ROOT = join(import.meta.dirname, "..");
const BLOCK_MS = 180_000;
const TS = new Set(["ts", "typescript"]);
const SH = new Set(["sh", "bash", "shell"]);

/** README.md and every markdown file under docs/, by path relative to the repository. */
function docFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith(".md") ? [join(dir, e.name)] : [],
    );
  return ["README.md", ...walk("docs").sort()];
}

const docs = docFiles().map((file) => ({
  file,
  blocks: codeBlocks(readFileSync(join(ROOT, file), "utf8")),
}));
const runnable = (b: CodeBlock) => (TS.has(b.lang) || SH.has(b.lang)) && b.notRun === undefined;
/** The name of a block's file in a scratch folder: `docs/cli.md` line 12 → `docs-cli.md-12.ts`. */
const scriptName = (file: string, b: CodeBlock) =>
  `${file.replace(/[/\\]/g, "-")}-${b.line}.${TS.has(b.lang) ? "ts" : "sh"}`;

const scratchRoot = mkdtempSync(join(tmpdir(), "graphspec-docs-run-"));
afterAll(() => rmSync(scratchRoot, { recursive: true, force: true }));

/** A folder as a user's project with graphspec installed: see the header. */
function scratchProject(name: string): string {
  const dir = join(scratchRoot, name);
  mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "docs-example", private: true, type: "module" }),
  );
  for (const folder of ["graphs", "tools"])
    cpSync(join(ROOT, folder), join(dir, folder), { recursive: true });
  // The examples' lock (their tool modules' and MCP server's tools), as the project commits it.
  cpSync(join(ROOT, "graphspec.lock.json"), join(dir, "graphspec.lock.json"));
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  // @types/node and typescript: what a TypeScript user has beside the package to type-check;
  // the MCP peers: what a project whose graphs use MCP servers installs (graphs/mcp-notes.yaml,
  // whose server in tools/ imports the SDK).
  const besides = [
    "@types/node",
    "typescript",
    "@langchain/mcp-adapters",
    "@modelcontextprotocol/sdk",
  ];
  for (const dep of [...Object.keys(pkg.dependencies), ...besides]) {
    mkdirSync(dirname(join(dir, "node_modules", dep)), { recursive: true });
    symlinkSync(join(ROOT, "node_modules", dep), join(dir, "node_modules", dep), "dir");
  }
  symlinkSync(ROOT, join(dir, "node_modules", "graphspec"), "dir");
  symlinkSync(join(ROOT, "bin", "graphspec.js"), join(dir, "node_modules", ".bin", "graphspec"));
  return dir;
}

interface Outcome {
  status: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs a command in its own process group, killed when it ends or after BLOCK_MS. */
function runBlock(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  return new Promise<Outcome>((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.on("data", (d: Buffer) => {
      stdout += d;
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d;
    });
    const killGroup = () => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // the group has no process left
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, BLOCK_MS);
    child.on("error", reject);
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      killGroup(); // whatever the block left running in the background
      resolve({ status, signal, stdout, stderr, timedOut });
    });
  });
}

/** A database name's part for a markdown file: `docs/cli.md` → `docs_cli_md`. */
const dbName = (file: string) => file.replace(/[^A-Za-z0-9]/g, "_").toLowerCase();

const tail = (text: string) => (text.length > 6000 ? `…${text.slice(-6000)}` : text);

describe("every fenced block names its language (an output listing is ```text)", () => {
  for (const { file, blocks } of docs) {
    const bare = blocks.filter((b) => b.fenced && b.lang === "");
    it(file, () => {
      expect(bare.map((b) => `${file}:${b.line}`)).toEqual([]);
    });
  }
});

describe("a block that is not run says why", () => {
  for (const { file, blocks } of docs) {
    it(file, () => {
      const silent = blocks.filter((b) => b.notRun === "").map((b) => `${file}:${b.line}`);
      expect(silent, "write <!-- not run: <why> -->").toEqual([]);
    });
  }
});

describe("ts and sh blocks run against the built package", () => {
  beforeAll(() => {
    expect(existsSync(join(ROOT, "dist", "index.js")), "run `npm run build` first").toBe(true);
  });

  for (const { file, blocks } of docs) {
    const toRun = blocks.filter(runnable);
    if (toRun.length === 0) continue;
    const needsPostgres = (b: CodeBlock) => /postgres/i.test(b.text);
    // Markdown files run side by side, each with its own scratch folder and database, so they
    // share nothing; a file's blocks run in order.
    describe.concurrent(file, () => {
      let dir = "";
      let databaseUrl = "";
      beforeAll(async () => {
        dir = scratchProject(file.replace(/[/\\]/g, "-"));
        if (serverUrl()) databaseUrl = await freshDatabase(`graphspec_docs_run_${dbName(file)}`);
      });
      for (const block of toRun) {
        const inOrder = needsPostgres(block) && !serverUrl() ? it.skip : it.sequential;
        inOrder(
          `${file}:${block.line}`,
          async () => {
            const script = scriptName(file, block);
            writeFileSync(join(dir, script), block.text);
            const env: NodeJS.ProcessEnv = {
              ...process.env,
              PATH: `${join(dir, "node_modules", ".bin")}:${process.env.PATH}`,
              NO_COLOR: "1",
              DATABASE_URL: databaseUrl,
              npm_config_update_notifier: "false",
              npm_config_offline: "true", // `npx graphspec` finds the local bin; never the registry
            };
            const out = TS.has(block.lang)
              ? await runBlock(process.execPath, ["--import", "tsx", script], dir, env)
              : await runBlock("bash", ["-e", "-o", "pipefail", script], dir, env);
            const what = out.timedOut
              ? `did not finish in ${BLOCK_MS} ms`
              : `exited with ${out.status ?? out.signal}`;
            expect(
              out.status,
              `${file}:${block.line} ${what}\n--- stderr ---\n${tail(out.stderr)}\n--- stdout ---\n${tail(out.stdout)}`,
            ).toBe(0);
          },
          BLOCK_MS + 30_000,
        );
      }
    });
  }
});

describe("ts blocks type-check against the built package's .d.ts", () => {
  const blocks = docs.flatMap(({ file, blocks }) =>
    blocks.filter((b) => TS.has(b.lang) && runnable(b)).map((block) => ({ file, block })),
  );
  /** tsc's errors by the block's script name, each pointed at its line in the markdown file. */
  const errors = new Map<string, string[]>();

  beforeAll(() => {
    const dir = scratchProject("typecheck");
    for (const { file, block } of blocks)
      writeFileSync(join(dir, scriptName(file, block)), block.text);
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: "es2023",
          lib: ["es2023"],
          module: "nodenext",
          moduleResolution: "nodenext",
          moduleDetection: "force", // each block is a module of its own
          types: ["node"],
          skipLibCheck: true,
        },
        include: ["*.ts"],
      }),
    );
    const tsc = join(dir, "node_modules", "typescript", "bin", "tsc");
    const r = spawnSync(process.execPath, [tsc, "-p", ".", "--pretty", "false"], {
      cwd: dir,
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(r.error).toBeUndefined();
    // One diagnostic per line, its explanation on the indented lines under it.
    const diagnostics: string[] = [];
    for (const line of r.stdout.split("\n")) {
      if (/^\s/.test(line) && diagnostics.length > 0)
        diagnostics[diagnostics.length - 1] += `\n${line}`;
      else if (line) diagnostics.push(line);
    }
    const placed = new Set<string>();
    for (const { file, block } of blocks) {
      const script = scriptName(file, block);
      const found: string[] = [];
      for (const d of diagnostics) {
        const m = /^(.+?)\((\d+),(\d+)\): (.*)$/s.exec(d);
        if (!m || m[1] !== script) continue;
        placed.add(d);
        found.push(`${file}:${block.contentLine + Number(m[2]) - 1}:${m[3]}: ${m[4]}`);
      }
      errors.set(script, found);
    }
    // An error outside the blocks (the configuration, a .d.ts) fails every block: show it.
    const elsewhere = diagnostics.filter((d) => !placed.has(d));
    for (const list of errors.values()) list.push(...elsewhere);
  }, 150_000);

  it("there are blocks to check", () => {
    expect(blocks.length).toBeGreaterThan(3);
  });

  for (const { file, block } of blocks) {
    it(`${file}:${block.line}`, () => {
      expect(errors.get(scriptName(file, block))).toEqual([]);
    });
  }
});
