import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { graphspecIn, ROOT, scratchDir } from "./support/cli.js";

const base = scratchDir("cli-init");
const graphspec = (cwd: string, ...args: string[]) =>
  graphspecIn(cwd, { OPENAI_API_KEY: "" })(...args);

describe("graphspec init", () => {
  it("makes a project that validates with no finding, passes its fixture and runs offline", () => {
    const made = graphspec(base, "init", "first-agent");
    expect(made.stderr).toBe("");
    expect(made.status).toBe(0);
    expect(made.stdout).toContain("+ graphs/triage.yaml");
    const dir = join(base, "first-agent");
    for (const f of [
      "graphs/triage.yaml",
      "graphs/triage.test.yaml",
      "tools/send-reply.ts",
      "README.md",
      "package.json",
      ".gitignore",
      "scripts.json",
      ".github/workflows/graphspec.yml",
      "graphspec.lock.json",
    ])
      expect(existsSync(join(dir, f)), f).toBe(true);
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");

    const spec = readFileSync(join(dir, "graphs/triage.yaml"), "utf8");
    expect(spec.split("\n")[0]).toBe(
      "# yaml-language-server: $schema=../node_modules/graphspec/schema/graph.schema.json",
    );
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const own = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(pkg).toMatchObject({
      name: "first-agent",
      scripts: { validate: "graphspec validate", test: "graphspec test" },
      dependencies: {
        graphspec: `^${own.version}`,
        "@langchain/core": own.dependencies["@langchain/core"],
        zod: own.dependencies.zod,
        // `graphspec run`/`dev` default to SQLite; the dev server's packages are for development.
        "@langchain/langgraph-checkpoint-sqlite":
          own.peerDependencies["@langchain/langgraph-checkpoint-sqlite"],
      },
      devDependencies: {
        hono: own.peerDependencies.hono,
        "@hono/node-server": own.peerDependencies["@hono/node-server"],
        chokidar: own.peerDependencies.chokidar,
      },
    });
    expect(pkg.scripts.dev).toMatch(/^graphspec dev\b/);

    const validated = graphspec(dir, "validate", "--format", "json");
    expect(JSON.parse(validated.stdout)).toEqual([]);
    expect(validated.status).toBe(0);

    const tested = graphspec(dir, "test", "--json");
    expect(JSON.parse(tested.stdout)).toMatchObject({ passed: 2, failed: 0, fixtureErrors: 0 });
    expect(tested.status).toBe(0);

    // The README's commands: a run pauses for approval, the resume sends the reply with the tool.
    const ran = graphspec(
      dir,
      "run",
      "triage",
      "--input",
      '{"request":"the site is down"}',
      "--scripts",
      "@scripts.json",
      "--json",
    );
    expect(ran.status).toBe(0);
    const paused = JSON.parse(ran.stdout);
    expect(paused).toMatchObject({ status: "interrupted", output: { priority: "urgent" } });
    const resumed = graphspec(
      dir,
      "resume",
      "triage",
      "--thread",
      paused.threadId,
      "--value",
      "true",
      "--json",
    );
    expect(resumed.status).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({
      status: "completed",
      output: { approved: true, log: ["sent: We are on it: the site is down"] },
    });
  }, 120_000);

  it("writes a CI workflow that is valid YAML: validate with annotations, then the fixtures", () => {
    const dir = join(base, "ci");
    expect(graphspec(base, "init", "ci").status).toBe(0);
    const workflow = parse(readFileSync(join(dir, ".github/workflows/graphspec.yml"), "utf8"));
    expect(workflow.on).toEqual(["push", "pull_request"]);
    const steps: { uses?: string; run?: string }[] = Object.values(
      workflow.jobs as Record<string, { steps: { uses?: string; run?: string }[] }>,
    )[0]!.steps;
    const runs = steps.map((s) => s.run ?? s.uses);
    expect(runs[0]).toMatch(/^actions\/checkout@/);
    const validate = runs.findIndex((r) => /graphspec validate --format github\b/.test(r ?? ""));
    const test = runs.findIndex((r) => /graphspec test\b/.test(r ?? ""));
    expect(validate).toBeGreaterThan(0);
    expect(test).toBeGreaterThan(validate);
  });

  it("refuses a directory that is not empty, and leaves it as it was", () => {
    const dir = join(base, "busy");
    mkdirSync(dir);
    writeFileSync(join(dir, "notes.txt"), "mine");
    const r = graphspec(base, "init", "busy");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("busy is not empty (notes.txt)");
    expect(r.stderr).toContain("--force");
    expect(existsSync(join(dir, "graphs"))).toBe(false);
  });

  it("--force adds what is missing and never overwrites a file", () => {
    const dir = join(base, "forced");
    mkdirSync(join(dir, "graphs"), { recursive: true });
    writeFileSync(join(dir, "README.md"), "my readme\n");
    writeFileSync(join(dir, "graphs", "triage.yaml"), "# mine\n");
    const r = graphspec(base, "init", "forced", "--force");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("= README.md (exists: kept as it is)");
    expect(r.stdout).toContain("= graphs/triage.yaml (exists: kept as it is)");
    expect(r.stdout).toContain("+ tools/send-reply.ts");
    expect(readFileSync(join(dir, "README.md"), "utf8")).toBe("my readme\n");
    expect(readFileSync(join(dir, "graphs", "triage.yaml"), "utf8")).toBe("# mine\n");
  });

  it("a path that is a file is a usage error", () => {
    writeFileSync(join(base, "plain"), "x");
    const r = graphspec(base, "init", "plain");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("plain is a file, not a directory");
  });
});
