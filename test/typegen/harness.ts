/**
 * For the `graphspec types` tests: the built CLI, and the repository's TypeScript (strict) over a
 * folder inside the project, where `import … from "graphspec"` resolves to the package itself.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "bin", "graphspec.js");
const TSC = join(ROOT, "node_modules", ".bin", "tsc");
export const TSX = join(ROOT, "node_modules", ".bin", "tsx");

/** A scratch folder inside the project (remove it after). */
export const projectScratch = (): string => mkdtempSync(join(ROOT, ".types-test-"));

export const cli = (args: string[], cwd: string) =>
  spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: "utf8" });

const TSCONFIG = JSON.stringify({
  compilerOptions: {
    target: "es2023",
    module: "nodenext",
    moduleResolution: "nodenext",
    lib: ["es2023"],
    types: ["node"],
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
  },
  include: ["*.ts", "types/*.ts"],
});

/** `tsc --noEmit` over a folder (its *.ts and types/*.ts): its errors as `file:line TScode`. */
export function typeCheck(dir: string): { errors: string[]; stdout: string } {
  writeFileSync(join(dir, "tsconfig.json"), TSCONFIG);
  const r = spawnSync(TSC, ["-p", join(dir, "tsconfig.json"), "--pretty", "false"], {
    cwd: dir,
    encoding: "utf8",
  });
  const errors = [...r.stdout.matchAll(/^(\S+?)\((\d+),\d+\): error (TS\d+)/gm)].map(
    (m) => `${m[1]}:${m[2]} ${m[3]}`,
  );
  return { errors, stdout: r.stdout + r.stderr };
}

/** Where a file marks the error it must have: `// error: TS2322` ends the line. */
export function markedErrors(file: string, text: string): string[] {
  return text.split("\n").flatMap((line, i) => {
    const code = /\/\/ error: (TS\d+)$/.exec(line)?.[1];
    return code ? [`${file}:${i + 1} ${code}`] : [];
  });
}
