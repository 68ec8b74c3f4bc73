/**
 * What a run body chooses for its run, in LangGraph Platform's terms, as the executor's per-run
 * options: `config.configurable.model` (a model from the spec's `allow` lists), `toolIds` (the
 * tools the run's models may call), `graphspec_stand_in` (what answers for the models, in dev), `config.recursion_limit`, `interrupt_before` /
 * `interrupt_after`. Their types are checked here (422); what they name, by the executor
 * (`model-not-allowed`, `invalid-run-option`) before anything runs.
 */
import type { RunChoiceOptions } from "../run/executor-api.js";
import { ApiError } from "./api-error.js";
import type { RunCreate } from "./request-body.js";

type Breakpoints = string[] | "*";

/** `config.configurable.graphspec_stand_in`: the id of a stand-in `graphspec dev` offers (docs/dev.md). */
export const STAND_IN_FIELD = "graphspec_stand_in";

const breakpoints = (value: unknown, field: string): Breakpoints | undefined => {
  if (value === undefined || value === null) return undefined;
  if (value === "*" || (Array.isArray(value) && value.every((v) => typeof v === "string")))
    return value as Breakpoints;
  throw new ApiError(422, "invalid-request", `\`${field}\` must be "*" or a list of node names`, {
    field,
    hint: 'e.g. ["approve"], or "*" for every node',
  });
};

export function runChoices(body: RunCreate): RunChoiceOptions & { allowedTools?: string[] } {
  const config = (body.config ?? {}) as Record<string, unknown>;
  const configurable = (config.configurable ?? {}) as Record<string, unknown>;
  const model = configurable.model;
  if (model !== undefined && typeof model !== "string")
    throw new ApiError(422, "invalid-request", "`config.configurable.model` must be a string", {
      field: "config.configurable.model",
      hint: "name a model of the graph's `allow` lists, e.g. `large`",
    });
  const recursionLimit = config.recursion_limit;
  if (recursionLimit !== undefined && typeof recursionLimit !== "number")
    throw new ApiError(422, "invalid-request", "`config.recursion_limit` must be a number", {
      field: "config.recursion_limit",
      hint: "a whole number from 1 to 10,000",
    });
  const toolIds = configurable.toolIds;
  if (
    toolIds !== undefined &&
    !(Array.isArray(toolIds) && toolIds.every((t) => typeof t === "string"))
  )
    throw new ApiError(
      422,
      "invalid-request",
      "`config.configurable.toolIds` must be a list of tool names",
      {
        field: "config.configurable.toolIds",
        hint: 'e.g. ["lookup_ticket"]; [] allows no tool',
      },
    );
  const standIn = configurable[STAND_IN_FIELD];
  if (standIn !== undefined && standIn !== null && typeof standIn !== "string")
    throw new ApiError(
      422,
      "invalid-request",
      `\`config.configurable.${STAND_IN_FIELD}\` must be the id of a stand-in`,
      {
        field: `config.configurable.${STAND_IN_FIELD}`,
        hint: "give an id the assistant's `metadata.graphspec.stand_ins` lists, or leave it out to run the spec's models",
      },
    );
  const interruptBefore = breakpoints(body.interrupt_before, "interrupt_before");
  const interruptAfter = breakpoints(body.interrupt_after, "interrupt_after");
  return {
    ...(model !== undefined ? { model } : {}),
    ...(recursionLimit !== undefined ? { recursionLimit } : {}),
    ...(interruptBefore !== undefined ? { interruptBefore } : {}),
    ...(interruptAfter !== undefined ? { interruptAfter } : {}),
    ...(toolIds !== undefined ? { allowedTools: toolIds as string[] } : {}),
    ...(typeof standIn === "string" ? { standIn } : {}),
  };
}
