/**
 * The entry of dist/cli/validate.cjs: `graphspec validate` with every module and package it runs,
 * bundled into one script (scripts/build-validate-script.mjs) that bin/graphspec.js loads with
 * V8's code cache (validate-script.ts). The same command `main` runs; only how it is loaded differs.
 */
import { validateCommand } from "./commands/validate.js";
import { type Io, processIo } from "./io.js";
import { runCommand } from "./run-command.js";

export { allowWideFanOut } from "./wide-fan-out.js";

/** `main` for `graphspec validate …` only: `argv[0]` is "validate". */
export function main(argv: string[], io: Io = processIo()): Promise<number> {
  return runCommand("validate", async () => validateCommand, argv.slice(1), io);
}
