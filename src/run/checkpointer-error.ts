/** The error of a checkpointer that cannot be opened; a file of its own so the package entry can export it without loading LangGraph. */

/** A checkpointer that cannot be opened: no DATABASE_URL, a server that does not answer, … */
export class CheckpointerError extends Error {
  override readonly name = "CheckpointerError";
  readonly hint: string;
  constructor(message: string, hint: string) {
    super(message);
    this.hint = hint;
  }
}
