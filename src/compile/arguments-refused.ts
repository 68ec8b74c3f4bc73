/**
 * Whether a tool's failure is LangChain's ToolInputParsingException (its arguments refused by its
 * schema) — by the class's name: the error's `name` is plain "Error", and a tool module may bring
 * its own copy of @langchain/core, so `instanceof` cannot tell.
 */
export function argumentsRefused(e: unknown): boolean {
  return (
    (e as { constructor?: { name?: unknown } })?.constructor?.name === "ToolInputParsingException"
  );
}
