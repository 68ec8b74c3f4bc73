/**
 * `--scripts` of `graphspec run`, `resume` and `dev`: JSON text, `@file.json`, or a test fixture
 * `@graphs/x.test.yaml` — the scripts of its first test, or of the test named after `#` (its name
 * or its number, from 1) — so a graph runs offline with the answers its fixture already has. Which
 * model each script stands in for is compile's rule (compile/models/script-key.ts).
 */
import { relative, resolve } from "node:path";
import type { Scripts } from "../compile/models/script.js";
import { jsonArg } from "./args.js";
import { type Io, UsageError } from "./io.js";

/** The scripts `--scripts` gives, or undefined when it is not given. */
export async function scriptsArg(io: Io, text: string | undefined): Promise<Scripts | undefined> {
  if (text === undefined) return undefined;
  const hash = text.lastIndexOf("#");
  const file = text.startsWith("@") ? (hash > 0 ? text.slice(1, hash) : text.slice(1)) : undefined;
  // Loaded only for a file: the fixture reader brings the schema validator with it.
  const fixtures = file === undefined ? undefined : await import("../run/fixtures/load.js");
  if (file === undefined || !fixtures?.FIXTURE_FILE.test(file)) {
    const scripts = jsonArg(io, "scripts", text);
    if (typeof scripts !== "object" || scripts === null || Array.isArray(scripts))
      throw new UsageError(
        '--scripts must be an object of scripts by model, e.g. {"default": ["an answer"]}',
      );
    return scripts as Scripts;
  }
  const path = resolve(io.cwd, file);
  const { fixture, problems } = await fixtures.loadFixture(path, relative(io.cwd, path) || path);
  const first = problems[0];
  if (!fixture || first) {
    const where = first ? `${first.file}:${first.line}:${first.column}` : file;
    throw new UsageError(`--scripts: ${where}: ${first?.message ?? "not a test fixture"}`);
  }
  const wanted = hash > 0 ? text.slice(hash + 1) : undefined;
  const test =
    wanted === undefined
      ? fixture.tests[0]
      : (fixture.tests.find((t) => t.name === wanted) ??
        (/^[1-9]\d*$/.test(wanted) ? fixture.tests[Number(wanted) - 1] : undefined));
  if (!test) {
    const names = fixture.tests.map((t, i) => `${i + 1}. ${t.name}`).join("; ");
    throw new UsageError(
      `--scripts: ${file} has no test \`${wanted}\`: give a test's name or number after \`#\` (${names})`,
    );
  }
  return (test.scripts ?? {}) as Scripts;
}
