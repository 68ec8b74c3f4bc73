/**
 * A run's `config.configurable.graphspec_stand_in`, checked when the run is created so a bad one
 * is a 422 naming the field (the executor checks again when the run starts). Only a server given
 * a StandInCatalog — `graphspec dev` — offers stand-ins: `serve` refuses every one, so no caller
 * of a production server swaps its models for scripts.
 */
import { chosenStandIn } from "../run/chosen-stand-in.js";
import type { StandInCatalog } from "../run/executor-api.js";
import { ApiError } from "./api-error.js";
import { STAND_IN_FIELD } from "./run-choices.js";

const field = `config.configurable.${STAND_IN_FIELD}`;

export async function refuseStandIn(
  catalog: StandInCatalog | undefined,
  specPath: string,
  id: string | undefined,
): Promise<void> {
  if (id === undefined) return;
  if (!catalog)
    throw new ApiError(422, "invalid-request", `\`${field}\` is offered by graphspec dev only`, {
      field,
      hint: "this server runs the spec's own models: leave the field out (stand-ins are for `graphspec dev`, docs/dev.md)",
    });
  const { error } = await chosenStandIn(catalog, specPath, id);
  if (error)
    throw new ApiError(422, "invalid-request", error.message, {
      field,
      ...(error.hint ? { hint: error.hint } : {}),
    });
}
