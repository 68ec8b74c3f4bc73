/** The run-create field that carries the stand-in choice (src/server/run-choices.ts; stand-in.ts). */
export const STAND_IN_FIELD = "graphspec_stand_in";
