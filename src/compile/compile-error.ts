/** A spec that cannot be compiled: it has errors, or something it references cannot be used. The diagnostics say where, as `validate` would. */
import type { Diagnostic } from "../diagnostics/diagnostic.js";

/** A spec that cannot be compiled: it has errors, or something it references cannot be used. */
export class CompileError extends Error {
  override readonly name = "CompileError";
  readonly diagnostics: readonly Diagnostic[];

  constructor(message: string, diagnostics: readonly Diagnostic[] = []) {
    super(message);
    this.diagnostics = diagnostics;
  }
}
