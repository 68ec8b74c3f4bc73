/**
 * A run's deadline and token budget over HTTP, as `graphspec run --deadline / --max-tokens` give
 * them on the command line: `config.configurable.graphspec_deadline` (`"30s"`, `"5m"`, or
 * milliseconds, from the run's start) and `config.configurable.graphspec_max_tokens`. The server
 * bounds both (`--run-deadline`, default one hour as LangGraph Platform bounds a background run;
 * `--run-max-tokens`, default none): a run that asks for less gets what it asked, one that asks
 * for nothing gets the server's, one that asks for more is refused (422) rather than quietly cut.
 */
import { durationMs } from "../run/duration.js";
import { ApiError } from "./api-error.js";
import type { RunCreate } from "./request-body.js";

export const DEADLINE_FIELD = "graphspec_deadline";
export const MAX_TOKENS_FIELD = "graphspec_max_tokens";

/** The server's bounds on every run it starts. */
export interface RunLimitCaps {
  /** Milliseconds a run may take from its start; undefined: no bound. */
  deadlineMs?: number | undefined;
  /** Tokens a run's model calls may use; undefined: no bound. */
  maxTokens?: number | undefined;
}

/** One hour, as LangGraph Platform's `BG_JOB_TIMEOUT_SECS`. */
export const DEFAULT_RUN_DEADLINE_MS = 3_600_000;

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`);

function deadlineOf(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const ms =
    typeof value === "number" ? value : typeof value === "string" ? durationMs(value) : undefined;
  if (ms !== undefined && Number.isFinite(ms) && ms > 0) return ms;
  throw new ApiError(
    422,
    "invalid-request",
    `\`config.configurable.${DEADLINE_FIELD}\` must be a duration above 0`,
    {
      field: `config.configurable.${DEADLINE_FIELD}`,
      hint: 'e.g. "30s", "5m", "1h", or a number of milliseconds',
    },
  );
}

function maxTokensOf(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return value;
  throw new ApiError(
    422,
    "invalid-request",
    `\`config.configurable.${MAX_TOKENS_FIELD}\` must be a whole number of tokens above 0`,
    { field: `config.configurable.${MAX_TOKENS_FIELD}`, hint: "e.g. 20000" },
  );
}

/** The run's `deadline` (ms from its start) and `maxTokens`, within the server's caps. */
export function runLimits(
  body: RunCreate,
  caps: RunLimitCaps,
): { deadline?: number; maxTokens?: number } {
  const config = (body.config ?? {}) as Record<string, unknown>;
  const configurable = (config.configurable ?? {}) as Record<string, unknown>;
  const askedDeadline = deadlineOf(configurable[DEADLINE_FIELD]);
  const askedTokens = maxTokensOf(configurable[MAX_TOKENS_FIELD]);
  if (
    askedDeadline !== undefined &&
    caps.deadlineMs !== undefined &&
    askedDeadline > caps.deadlineMs
  )
    throw new ApiError(
      422,
      "invalid-request",
      `\`config.configurable.${DEADLINE_FIELD}\` (${seconds(askedDeadline)}) is longer than this server allows (${seconds(caps.deadlineMs)})`,
      {
        field: `config.configurable.${DEADLINE_FIELD}`,
        hint: `ask for ${seconds(caps.deadlineMs)} or less, or leave it out to get the server's; an operator raises it with --run-deadline`,
      },
    );
  if (askedTokens !== undefined && caps.maxTokens !== undefined && askedTokens > caps.maxTokens)
    throw new ApiError(
      422,
      "invalid-request",
      `\`config.configurable.${MAX_TOKENS_FIELD}\` (${askedTokens}) is more than this server allows (${caps.maxTokens})`,
      {
        field: `config.configurable.${MAX_TOKENS_FIELD}`,
        hint: `ask for ${caps.maxTokens} or fewer, or leave it out to get the server's; an operator raises it with --run-max-tokens`,
      },
    );
  const deadline = askedDeadline ?? caps.deadlineMs;
  const maxTokens = askedTokens ?? caps.maxTokens;
  return {
    ...(deadline !== undefined ? { deadline } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
  };
}
