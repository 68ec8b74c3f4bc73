/**
 * How large what a run takes in and keeps may be: a run's input, a resume value, a thread's state
 * in one checkpoint (and one step's writes), and all of a thread's stored checkpoints. Inputs come
 * from strangers and state grows with every loop; without bounds one thread filled the SQLite
 * file until `threads list` and `threads delete` failed with `string or blob too big` for every
 * thread. What is over a limit is refused before anything is written.
 */
import { Command } from "@langchain/langgraph";
import type { RunError } from "./result.js";

export interface SizeLimits {
  /** Bytes (as JSON) a run's input may have, and its context. Default 1 MiB. */
  maxInputBytes?: number;
  /** Bytes (as JSON) a resume value may have. Default 1 MiB. */
  maxResumeBytes?: number;
  /**
   * Bytes (as the checkpointer serializes it) a thread's state may have in one checkpoint, and
   * one step's writes together. Default 16 MiB.
   */
  maxStateBytes?: number;
  /**
   * Bytes of checkpoints (and their writes) one thread keeps: past it, its oldest checkpoints are
   * deleted after each new one (the newest always stays). Default 64 MiB; SQLite only (PostgreSQL
   * and memory checkpoints are not pruned).
   */
  maxThreadBytes?: number;
}

const MiB = 1024 * 1024;
export const DEFAULT_SIZE_LIMITS: Required<SizeLimits> = {
  maxInputBytes: 1 * MiB,
  maxResumeBytes: 1 * MiB,
  maxStateBytes: 16 * MiB,
  maxThreadBytes: 64 * MiB,
};

/** The limits in force: the given ones over the defaults. */
export const sizeLimits = (given: SizeLimits = {}): Required<SizeLimits> => ({
  maxInputBytes: given.maxInputBytes ?? DEFAULT_SIZE_LIMITS.maxInputBytes,
  maxResumeBytes: given.maxResumeBytes ?? DEFAULT_SIZE_LIMITS.maxResumeBytes,
  maxStateBytes: given.maxStateBytes ?? DEFAULT_SIZE_LIMITS.maxStateBytes,
  maxThreadBytes: given.maxThreadBytes ?? DEFAULT_SIZE_LIMITS.maxThreadBytes,
});

/** "1.5 MiB", "300 KiB", "12 bytes". */
export function formatBytes(n: number): string {
  if (n >= MiB) return `${Number((n / MiB).toFixed(1))} MiB`;
  if (n >= 1024) return `${Number((n / 1024).toFixed(1))} KiB`;
  return `${n} bytes`;
}

/** What measuring a value found: its JSON size (up to the first byte past `limit`), a `__proto__` key. */
interface Measure {
  /** The JSON size, or a number past the limit when it is larger. */
  bytes: number;
  /** The path of a `__proto__` key, which would give the value a foreign prototype once stored. */
  unsafeKey?: string;
}

/**
 * The size of `value` as JSON, stopping as soon as it passes `limit` — so a gigabyte of input
 * costs no more to refuse than a megabyte. Iterative: deep nesting cannot exhaust the stack.
 */
export function measureJson(value: unknown, limit: number): Measure {
  let bytes = 0;
  const stack: [unknown, string][] = [[value, ""]];
  while (stack.length && bytes <= limit) {
    const [v, path] = stack.pop()!;
    if (typeof v === "string") bytes += Buffer.byteLength(v) + 2;
    else if (v === null || typeof v !== "object") bytes += String(v).length;
    else if (Array.isArray(v)) {
      bytes += 1 + v.length;
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}[${i}]`]);
    } else {
      const keys = Object.keys(v);
      bytes += 1 + keys.length;
      for (const k of keys) {
        if (k === "__proto__") return { bytes, unsafeKey: path ? `${path}.${k}` : k };
        bytes += Buffer.byteLength(k) + 3;
        stack.push([(v as Record<string, unknown>)[k], path ? `${path}.${k}` : k]);
      }
    }
  }
  return { bytes };
}

/** The refusal of a run's input, context or resume value over its limit (or with a `__proto__` key). */
export function inputRefusal(
  what: "input" | "resume" | "context",
  value: unknown,
  limits: Required<SizeLimits>,
): RunError | undefined {
  const limit = what === "resume" ? limits.maxResumeBytes : limits.maxInputBytes;
  const m = measureJson(value, limit);
  const subject =
    what === "input"
      ? "the run's input"
      : what === "context"
        ? "the run's context"
        : "the resume value";
  if (m.unsafeKey !== undefined) {
    return {
      code: "invalid-input",
      phase: "input",
      message: `${subject} has a key \`__proto__\` (at \`${m.unsafeKey}\`), which could give stored data a foreign prototype`,
      hint: "rename the key",
      field: m.unsafeKey,
    };
  }
  if (m.bytes <= limit) return undefined;
  const option = what === "resume" ? "maxResumeBytes" : "maxInputBytes";
  const flag = what === "resume" ? "--max-resume-bytes" : "--max-input-bytes";
  return {
    code: "input-too-large",
    phase: "input",
    message: `${subject} is larger than its limit of ${formatBytes(limit)}; nothing was run or stored`,
    hint: `send less (large documents belong in a store the graph reads by reference), or raise the executor's \`${option}\` (CLI: ${flag})`,
  };
}

/** The input of `run` or `resume` as given: a resume's is the Command's `resume` value. */
export function givenValue(input: unknown): { what: "input" | "resume"; value: unknown } {
  // A Command's update is bounded with its answer: both are the caller's, written to the thread.
  return input instanceof Command
    ? {
        what: "resume",
        value:
          input.update === undefined
            ? input.resume
            : { resume: input.resume, update: input.update },
      }
    : { what: "input", value: input };
}

/** The refusal of what a run was given (input or resume value, and context), if any is over its limit. */
export const givenRefusal = (
  input: unknown,
  context: unknown,
  limits: Required<SizeLimits>,
): RunError | undefined => {
  const { what, value } = givenValue(input);
  return inputRefusal(what, value, limits) ?? inputRefusal("context", context ?? {}, limits);
};
