/** A spec that cannot be compiled: it has errors, or something it references cannot be used. The diagnostics say where, as `validate` would. */
import type { Diagnostic } from "../diagnostics/diagnostic.js";

/** A spec that cannot be compiled: it has errors, or something it references cannot be used. */
export class CompileError extends Error {
  override readonly name = "CompileError";
  readonly diagnostics: readonly Diagnostic[];

  /**
   * `cause`: the failure behind it, when it is not the spec's — an MCP server that could not be
   * reached to list its tools (a GraphspecRunError `mcp-unavailable`): an executor fails the run
   * with it instead, and tries again on the next (run-driver.ts).
   */
  constructor(message: string, diagnostics: readonly Diagnostic[] = [], cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.diagnostics = diagnostics;
  }
}
