/**
 * scripts/mutate.mjs's choice of groups and of forced runs (docs/testing.md#mutation-testing),
 * without StrykerJS: the script is copied into a throwaway git repository with groups of its own
 * and a stand-in for Stryker's CLI (node_modules/@stryker-mutator/core/bin/stryker.js) that records
 * how it was called, writes the incremental file and a report with the score the test asks for.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { project } from "../security/validate-project.js";

const SCRIPT = join(import.meta.dirname, "..", "..", "scripts", "mutate.mjs");

const GROUPS = `export const groups = {
  alpha: { mutate: ["src/a.ts"], tests: ["test/a.test.ts"], watch: ["src/**", "lib/dep.ts"] },
  beta: { mutate: ["src/b/*.ts"], tests: ["test/b.test.ts"], watch: ["src/b/**", "test/b-*.ts"] },
};
`;

/** Stryker's stand-in: `stryker.js run stryker/<group>.config.mjs [--force]`. */
const FAKE_STRYKER = `import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
const [config, ...rest] = process.argv.slice(3);
const name = /stryker\\/(.+)\\.config\\.mjs$/.exec(config)[1];
appendFileSync("runs.log", \`\${name}\${rest.includes("--force") ? " --force" : ""}\\n\`);
const [killed, survived] = JSON.parse(readFileSync("scores.json", "utf8"))[name];
const mutants = [
  ...Array.from({ length: killed }, () => ({ status: "Killed" })),
  ...Array.from({ length: survived }, () => ({ status: "Survived", location: { start: { line: 1, column: 1 } }, mutatorName: "X" })),
];
mkdirSync("reports/mutation", { recursive: true });
writeFileSync(\`reports/mutation/\${name}.json\`, JSON.stringify({ files: { "src/x.ts": { mutants } } }));
writeFileSync(\`stryker/incremental/\${name}.json\`, "{}");
`;

function repo(): {
  dir: string;
  run: (...args: string[]) => { status: number | null; out: string; err: string };
  runs: () => string[];
  write: (path: string, text: string) => void;
  git: (...args: string[]) => void;
} {
  const dir = project({
    ".gitignore": "node_modules/\nreports/\nruns.log\nscores.json\n",
    "stryker/groups.mjs": GROUPS,
    "stryker/incremental/.keep": "",
    "src/a.ts": "export const a = 1;\n",
    "src/other.ts": "export const o = 1;\n",
    "src/b/b.ts": "export const b = 1;\n",
    "lib/dep.ts": "export const dep = 1;\n",
    "test/a.test.ts": "// a\n",
    "test/b.test.ts": "// b\n",
    "node_modules/@stryker-mutator/core/bin/stryker.js": FAKE_STRYKER,
    "scores.json": JSON.stringify({ alpha: [9, 1], beta: [10, 0] }),
  });
  mkdirSync(join(dir, "scripts"));
  copyFileSync(SCRIPT, join(dir, "scripts", "mutate.mjs"));
  const git = (...args: string[]) => {
    const r = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(r.status, r.stderr).toBe(0);
  };
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "base");
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  const run = (...args: string[]) => {
    const r = spawnSync(process.execPath, ["scripts/mutate.mjs", ...args], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, GRAPHSPEC_STRYKER_NODE: process.execPath },
    });
    return { status: r.status, out: r.stdout, err: r.stderr };
  };
  const runs = () => {
    try {
      const text = readFileSync(join(dir, "runs.log"), "utf8");
      rmSync(join(dir, "runs.log"));
      return text.split("\n").filter(Boolean);
    } catch {
      return [];
    }
  };
  return { dir, run, runs, write, git };
}

const planLines = (out: string) => out.split("\n").filter((l) => /^(alpha|beta): /.test(l));

describe("npm run mutate -- --changed BASE --plan", () => {
  it("picks the groups whose mutated, test or watched files differ from BASE, running nothing", () => {
    const r = repo();
    expect(r.run("--changed", "main", "--plan").out).toContain("groups touched since main: none");
    r.write("lib/dep.ts", "export const dep = 2;\n");
    let p = r.run("--changed", "main", "--plan");
    expect(p.status).toBe(0);
    expect(p.out).toContain("groups touched since main: alpha\n");
    expect(planLines(p.out)).toEqual(["alpha: every mutant (no incremental file yet)"]);
    r.write("test/b-helper.ts", "// new, untracked\n");
    p = r.run("--changed", "main", "--plan");
    expect(p.out).toContain("groups touched since main: alpha, beta\n");
    expect(r.runs()).toEqual([]);
  });
});

describe("a group's watched files changed since its last run: it runs with --force", () => {
  it("records them when it runs, and forces the next run of the group whose watched file changed", () => {
    const r = repo();
    expect(r.run("--all").status).toBe(0);
    expect(r.runs()).toEqual(["alpha", "beta"]);
    const record = JSON.parse(
      readFileSync(join(r.dir, "stryker/incremental/alpha.watch.json"), "utf8"),
    );
    // Its watched files, less its mutated and test files (Stryker follows those itself).
    expect(Object.keys(record.files)).toEqual(["lib/dep.ts", "src/b/b.ts", "src/other.ts"]);
    expect(planLines(r.run("--all", "--plan").out)).toEqual([
      "alpha: incremental",
      "beta: incremental",
    ]);

    // A change to a mutated file is Stryker's to see: no force.
    r.write("src/a.ts", "export const a = 2;\n");
    expect(planLines(r.run("--all", "--plan").out)).toEqual([
      "alpha: incremental",
      "beta: incremental",
    ]);

    r.write("lib/dep.ts", "export const dep = 2;\n");
    r.write("test/b-helper.ts", "// added\n");
    expect(planLines(r.run("--all", "--plan").out)).toEqual([
      "alpha: --force (watched files changed since its last run: lib/dep.ts)",
      "beta: --force (watched files changed since its last run: test/b-helper.ts)",
    ]);
    expect(r.runs()).toEqual([]);
    expect(r.run("alpha").status).toBe(0);
    expect(r.runs()).toEqual(["alpha --force"]);
    expect(planLines(r.run("--all", "--plan").out)).toEqual([
      "alpha: incremental",
      "beta: --force (watched files changed since its last run: test/b-helper.ts)",
    ]);

    // A watched file removed is a change too.
    rmSync(join(r.dir, "src/other.ts"));
    expect(planLines(r.run("alpha", "--plan").out)).toEqual([
      "alpha: --force (watched files changed since its last run: src/other.ts)",
    ]);
  });

  it("an incremental file without a record of the watched files: forced", () => {
    const r = repo();
    r.write("stryker/incremental/beta.json", "{}");
    expect(planLines(r.run("beta", "--plan").out)).toEqual([
      "beta: --force (no record of its watched files: stryker/incremental/beta.watch.json)",
    ]);
    expect(planLines(r.run("beta", "--force", "--plan").out)).toEqual(["beta: --force (asked)"]);
  });
});

describe("--min N", () => {
  it("exits 1 naming each group under N% and its score", () => {
    const r = repo();
    const low = r.run("--all", "--min", "95");
    expect(low.status).toBe(1);
    expect(low.err).toContain("under 95%: alpha 90.0%");
    expect(r.run("--all", "--min", "90").status).toBe(0);
  });
});
