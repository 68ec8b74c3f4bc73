/**
 * The project's `.env`, as `run`, `resume`, `threads`, `test`, `dev` and `serve` read it (and as
 * `langgraph.json`'s `env` makes the official server read it): variables the environment lacks
 * are set from it, never one it has; the values that may be credentials are masked in every run.
 *
 * Parsing is Node's own (`util.parseEnv`, the parser of `node --env-file`), which reads what
 * dotenv reads — the format the official CLI loads `env` with — except a line that is not
 * `NAME=value`, text after a closing quote, or a quote never closed: Node 20 and 24 and dotenv
 * each read those differently and none says so. Such a line is refused here, at its file:line.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { parseEnv } from "node:util";
import { findProjectRoot } from "../spec/project-root.js";
import { isSecretKey, urlPassword } from "../spec/secrets.js";
import { type Io, UsageError } from "./io.js";

/** The `--env-file` option, for a command's parseArgs options. */
export const ENV_FILE_OPTION = { "env-file": { type: "string" } } as const;

/** The help line of `--env-file`. */
export const ENV_FILE_HELP = `      --env-file <path>           read variables from this file instead of the project's .env
                                  (the environment's own values win; secrets are masked)`;

/**
 * The .env a command reads: `--env-file` (relative to the working directory), else `.env` in the
 * project root — the nearest folder up from the working directory with package.json, .git or
 * graphspec.config.json, else the working directory. Undefined when there is no project .env.
 */
export function envFilePath(io: Io, given: string | undefined): string | undefined {
  if (given !== undefined) {
    const path = resolve(io.cwd, given);
    if (!existsSync(path))
      throw new UsageError(
        `--env-file ${given}: no such file\n  hint: give the path of a file of NAME=value lines, or leave --env-file out to read the project's .env`,
      );
    return path;
  }
  const path = join(findProjectRoot(io.cwd), ".env");
  return existsSync(path) ? path : undefined;
}

const LINE = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*(.*)$/;

/** A line of the file that is not `NAME=value`, or a quoted value not closed where it should be. */
function malformed(text: string): { line: number; problem: string } | undefined {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim() || line.trim().startsWith("#")) continue;
    const m = LINE.exec(line);
    if (!m) return { line: i + 1, problem: "not a variable: write NAME=value" };
    const value = m[2]!;
    const quote = value[0];
    if (quote !== '"' && quote !== "'" && quote !== "`") continue;
    // A quoted value may go on over lines, up to the first same quote (as Node and dotenv read it).
    let rest = value.slice(1);
    let at = i;
    let close = rest.indexOf(quote);
    while (close < 0 && at + 1 < lines.length) {
      at++;
      rest = lines[at]!;
      close = rest.indexOf(quote);
    }
    if (close < 0)
      return {
        line: i + 1,
        problem: `the ${quote} that opens ${m[1]}'s value is never closed: close it, or leave the value unquoted`,
      };
    const after = rest.slice(close + 1).trim();
    if (after && !after.startsWith("#"))
      return {
        line: at + 1,
        problem: `text after the closing ${quote} of ${m[1]}'s value: put it inside the quotes (a quote inside the value: use the other kind of quote)`,
      };
    i = at;
  }
  return undefined;
}

/**
 * The values that are masked: every value under a name that looks secret (as the environment's:
 * `OPENAI_API_KEY`, `DB_PASSWORD`, `DATABASE_URL`, …), a URL's password, and any other value of 16
 * characters or more without spaces that is not a URL — long enough to be a key or token, while
 * settings such as `PORT=8080`, `DEBUG=1` or `LOG_LEVEL=info` stay readable in output.
 */
export function envFileSecrets(values: Record<string, string>): string[] {
  return Object.entries(values).flatMap(([name, value]) => {
    const password = urlPassword(value);
    if (isSecretKey(name)) return [value, ...password];
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return password;
    return value.length >= 16 && !/\s/.test(value) ? [value] : [];
  });
}

/**
 * Reads the command's .env (envFilePath) into `process.env` — each variable only where the
 * environment has none — and returns the values to mask. A file that cannot be read, or has a
 * malformed line, is the user's input: a usage error naming it (file:line).
 */
export function loadEnvFile(io: Io, given: string | undefined): { secrets: string[] } {
  const path = envFilePath(io, given);
  if (path === undefined) return { secrets: [] };
  const shown = relative(io.cwd, path) || path;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new UsageError(
      `${given !== undefined ? `--env-file ${given}` : shown}: cannot read it: ${(e as Error).message}`,
    );
  }
  const bad = malformed(text);
  if (bad) throw new UsageError(`${shown}:${bad.line}: ${bad.problem}`);
  const values = parseEnv(text) as Record<string, string>;
  for (const [name, value] of Object.entries(values))
    if (process.env[name] === undefined) process.env[name] = value;
  return { secrets: envFileSecrets(values) };
}
