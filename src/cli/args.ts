/** Option values of the run commands: JSON inline or from a file, token counts, deadlines. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { durationMs } from "../run/duration.js";
import { type Io, UsageError } from "./io.js";

/** A JSON value given inline or as `@file`. */
export function jsonArg(io: Io, flag: string, text: string | undefined): unknown {
  if (text === undefined) return undefined;
  let source = text;
  if (text.startsWith("@")) {
    try {
      source = readFileSync(resolve(io.cwd, text.slice(1)), "utf8");
    } catch (e) {
      throw new UsageError(`--${flag}: cannot read ${text.slice(1)}: ${(e as Error).message}`);
    }
  }
  try {
    return JSON.parse(source);
  } catch (e) {
    throw new UsageError(`--${flag} is not valid JSON: ${(e as Error).message}`);
  }
}

/** A thread id: an empty one is refused, never read as "no thread" (a silent new thread). */
export function threadArg(flag: string, text: string | undefined): string | undefined {
  if (text === undefined || text.trim()) return text;
  throw new UsageError(
    `${flag}: the thread id is empty${flag === "--thread" ? ": leave --thread out to start a new thread" : ""}`,
  );
}

/** A whole number above zero. */
export function countArg(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0) {
    throw new UsageError(`--${flag} must be a whole number above 0, not "${text}"`);
  }
  return n;
}

/** Node names, comma-separated (`a,b`), or `*` for every node. */
export function nodeListArg(flag: string, text: string | undefined): string[] | "*" | undefined {
  if (text === undefined) return undefined;
  if (text.trim() === "*") return "*";
  const names = text.split(",").map((n) => n.trim());
  if (names.some((n) => !n)) {
    throw new UsageError(`--${flag} takes node names separated by commas (a,b), not "${text}"`);
  }
  return names;
}

/** A duration above zero (`500ms`, `30s`, `5m`, `2h`), in milliseconds. */
export function durationArg(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = durationMs(text) ?? Number.NaN;
  if (!(ms > 0))
    throw new UsageError(`--${flag} must be a duration above 0 (500ms, 10s, 1m), not "${text}"`);
  return ms;
}

/** A deadline: a duration from now (`500ms`, `30s`, `5m`, `2h`) or a point in time (ISO 8601). */
export function deadlineArg(text: string | undefined): number | Date | undefined {
  if (text === undefined) return undefined;
  const duration = durationMs(text);
  if (duration !== undefined) return duration;
  if (/^\d{4}-\d{2}-\d{2}T/.test(text)) {
    const at = new Date(text);
    if (!Number.isNaN(at.getTime())) return at;
  }
  throw new UsageError(
    `--deadline must be a duration (500ms, 30s, 5m, 2h) or a time (2026-11-22T18:00:00Z), not "${text}"`,
  );
}

const UNIT_BYTES: Record<string, number> = { "": 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };

/** A size in bytes: `1048576`, `512KiB`, `16MiB`, `1GiB`. */
export function bytesArg(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)\s*(kib|mib|gib)?$/i.exec(text.trim());
  const n = m ? Math.floor(Number(m[1]) * UNIT_BYTES[(m[2] ?? "").toLowerCase()]!) : Number.NaN;
  if (!Number.isSafeInteger(n) || n <= 0) {
    throw new UsageError(
      `--${flag} must be a size above 0 (1048576, 512KiB, 16MiB), not "${text}"`,
    );
  }
  return n;
}

/** The executor's size limits as `run`, `resume`, `serve` and `dev` take them: the flags given. */
export function sizeLimitArgs(values: Record<string, unknown>): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const [flag, option] of [
    ["max-input-bytes", "maxInputBytes"],
    ["max-resume-bytes", "maxResumeBytes"],
    ["max-state-bytes", "maxStateBytes"],
    ["max-thread-bytes", "maxThreadBytes"],
  ] as const) {
    const n = bytesArg(flag, values[flag] as string | undefined);
    if (n !== undefined) sizes[option] = n;
  }
  return sizes;
}

/** A comma-separated list (`--allow-tools a,b`): names trimmed, empty ones dropped; `""` is the empty list. */
export function listArg(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}
