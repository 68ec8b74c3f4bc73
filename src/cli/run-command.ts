import { nativeAddonError } from "../peers/native-addon.js";
import { EXIT, type Io, UsageError } from "./io.js";

export type Command = (argv: string[], io: Io) => Promise<number>;

/**
 * Runs one command; returns its exit code. Never throws: a usage error or a problem of the
 * machine becomes a message and exit code 2, anything else an internal error with its stack.
 */
export async function runCommand(
  name: string,
  load: () => Promise<Command>,
  argv: string[],
  io: Io,
): Promise<number> {
  try {
    return await (await load())(argv, io);
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      io.err(
        `graphspec ${name}: ${(e as Error).message}\nRun \`graphspec ${name} --help\` for usage.`,
      );
      return EXIT.usage;
    }
    // The environment cannot serve the command: a database that does not answer, a package that
    // is not installed or was built for another Node.js.
    const problem = environmentProblem(e);
    if (problem) {
      io.err(`graphspec ${name}: ${problem.message}\n  hint: ${problem.hint}`);
      return EXIT.usage;
    }
    io.err(
      `graphspec ${name}: internal error: ${(e as Error)?.stack ?? String(e)}\nPlease report this.`,
    );
    return EXIT.usage;
  }
}

/** An error of the machine or the installation rather than of graphspec, with its fix. */
function environmentProblem(e: unknown): { message: string; hint: string } | undefined {
  const name = (e as Error)?.name;
  if (name === "CheckpointerError" || name === "PackageError")
    return e as { message: string; hint: string };
  // A native addon loaded where no feature expected it still gets the rebuild command.
  return nativeAddonError(e);
}
