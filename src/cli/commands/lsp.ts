import { parseArgs } from "node:util";
import { EXIT, type Io, UsageError } from "../io.js";

const lspHelp = `Usage: graphspec lsp [--stdio]

A Language Server Protocol server for graphspec specs and catalogs, over stdin and stdout (the
only transport; --stdio is accepted, as editors pass it). It publishes every validate rule's
findings on the editor's unsaved text, as \`graphspec validate\` prints them. It runs nothing of
the repository. See docs/editor.md.

Options:
      --stdio                     talk over stdin/stdout (the default)
  -h, --help                      show this help`;

/** `graphspec lsp`: runs until the client says `exit` (the library ends the process then). */
export async function lspCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      stdio: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: false,
  });
  if (values.help) {
    io.out(lspHelp);
    return EXIT.ok;
  }
  for (const arg of argv)
    if (
      arg !== "--stdio" &&
      (arg.startsWith("--node-ipc") || arg.startsWith("--socket") || arg.startsWith("--pipe"))
    )
      throw new UsageError(
        `${arg.split("=")[0]}: graphspec lsp talks over stdio only; start it with --stdio`,
      );
  // Loaded here: nothing of the language server is read by the other commands.
  const { startLanguageServer } = await import("../../lsp/server.js");
  const connection = startLanguageServer();
  return new Promise<number>((done) => connection.onExit(() => done(EXIT.ok)));
}
