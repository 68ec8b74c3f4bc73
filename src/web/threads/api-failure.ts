/** What the page shows when the SDK's call fails: the server's message, not the raw HTTP text. */

/** The HTTP status of an SDK error (`HTTPError.status`), when it has one. */
export const statusOf = (e: unknown): number | undefined => {
  const s = (e as { status?: unknown })?.status;
  return typeof s === "number" ? s : undefined;
};

/** The server's `message` from an SDK error (`HTTP 409: {"error":…,"message":…}`), else its text. */
export function failureText(e: unknown): string {
  const text = String((e as Error)?.message ?? e);
  const json = text.indexOf("{");
  if (json >= 0) {
    try {
      const body = JSON.parse(text.slice(json)) as { message?: unknown; hint?: unknown };
      if (typeof body.message === "string")
        return typeof body.hint === "string" ? `${body.message} (${body.hint})` : body.message;
    } catch {
      // Not JSON after all: the text as it is.
    }
  }
  return text;
}
