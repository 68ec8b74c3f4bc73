/**
 * The one regular-expression engine for patterns a spec or a run supplies — a channel's or a JSON
 * Schema's `pattern`, the regex given to CEL's `matches()` — so that no input can make matching
 * take longer than linear time. JavaScript's backtracking RegExp takes 89 s for `^(a+)+$` on 32
 * `a`s and a `!`; RE2 (here `re2js`, its pure-JavaScript port) takes microseconds, and refuses at
 * compile time the constructs that need backtracking (backreferences, lookahead, lookbehind).
 *
 * Patterns are written as in ECMAScript; RE2's syntax is nearly the same. `\uXXXX` (and
 * `\u{X…}`), which RE2 spells `\x{XXXX}`, is translated.
 */
import { createRequire } from "node:module";
import type * as Re2js from "re2js";
import type { RE2JS } from "re2js";

let re2js: typeof Re2js | undefined;
/**
 * re2js (a quarter of a megabyte) loads with the first pattern compiled: most specs have none.
 * Its CommonJS build, so `require` loads it where it is first needed (pattern checks are synchronous).
 */
const engine = (): typeof Re2js =>
  (re2js ??= createRequire(import.meta.url)("re2js") as typeof Re2js);

/** Why a pattern cannot run on the engine, with the offset of the offending part. */
export interface RegexProblem {
  message: string;
  hint: string;
  /** Offsets in the pattern as written: [start, end). */
  start: number;
  end: number;
}

const LINEAR_HINT =
  "patterns run on RE2, which matches in linear time and so has no backreferences or lookaround: rewrite the pattern without them, or check the value in a function node";
const SYNTAX_HINT = "write the pattern in RE2 syntax: https://github.com/google/re2/wiki/Syntax";

/** ECMAScript's `\uXXXX` and `\u{X…}` as RE2's `\x{…}`; an escaped backslash stays as it is. */
const translate = (pattern: string): string =>
  pattern.includes("\\u")
    ? pattern.replace(/\\\\|\\u\{([0-9a-fA-F]{1,6})\}|\\u([0-9a-fA-F]{4})/g, (m, braced, four) =>
        m === "\\\\" ? m : `\\x{${braced ?? four}}`,
      )
    : pattern;

const compiled = new Map<string, RE2JS | RegexProblem>();
const MAX_CACHED = 512;

function compileOrProblem(pattern: string): RE2JS | RegexProblem {
  let entry = compiled.get(pattern);
  if (entry) return entry;
  try {
    entry = engine().RE2JS.compile(translate(pattern));
  } catch (e) {
    entry = problemOf(pattern, e);
  }
  if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value as string);
  compiled.set(pattern, entry);
  return entry;
}

function problemOf(pattern: string, e: unknown): RegexProblem {
  if (!(e instanceof engine().RE2JSSyntaxException)) {
    const message = String((e as Error)?.message ?? e);
    return { message, hint: SYNTAX_HINT, start: 0, end: pattern.length };
  }
  // `input` is the offending fragment; `(?<=` is reported as a bad named group, so say what it is.
  const fragment = String(e.input ?? "");
  const at = fragment ? pattern.indexOf(fragment) : -1;
  const start = at < 0 ? 0 : at;
  const end = at < 0 ? pattern.length : at + Math.max(1, Math.min(fragment.length, 4));
  const head = pattern.slice(start);
  const construct = /^\(\?<[=!]/.test(head)
    ? ["lookbehind", 4]
    : /^\(\?[=!]/.test(head)
      ? ["lookahead", 3]
      : /^\\([1-9]|k<)/.test(head)
        ? ["a backreference", 2]
        : undefined;
  if (construct) {
    const [what, length] = construct as [string, number];
    return {
      message: `the pattern uses ${what} (\`${head.slice(0, length)}\`), which the linear-time regex engine does not run`,
      hint: LINEAR_HINT,
      start,
      end: start + length,
    };
  }
  return {
    message: `the pattern is not a regular expression the linear-time engine accepts: ${e.error ?? e.message}${fragment ? ` at \`${fragment}\`` : ""}`,
    hint: SYNTAX_HINT,
    start,
    end,
  };
}

/** Why `pattern` cannot run, or undefined when it can. */
export function regexProblem(pattern: string): RegexProblem | undefined {
  const r = compileOrProblem(pattern);
  return r instanceof engine().RE2JS ? undefined : r;
}

/** A pattern that cannot run on the engine; its message says why. */
export class RegexError extends Error {
  override readonly name = "RegexError";
  readonly hint: string;
  constructor(problem: RegexProblem) {
    super(problem.message);
    this.hint = problem.hint;
  }
}

/** The compiled pattern. Throws RegexError for one the engine cannot take. */
export function linearRegex(pattern: string): { test(input: string): boolean } {
  const r = compileOrProblem(pattern);
  if (r instanceof engine().RE2JS) return r;
  throw new RegexError(r);
}

/**
 * The engine as Ajv's `code.regExp` option wants it: `(pattern, flags) => { test }`. Ajv's `u`
 * flag is RE2's default (it matches Unicode code points); `code` names it in standalone code,
 * which graphspec never generates with this engine.
 */
export const ajvRegExp = Object.assign(
  (pattern: string, _flags: string): { test(input: string): boolean } => linearRegex(pattern),
  { code: "linearRegex" },
);
