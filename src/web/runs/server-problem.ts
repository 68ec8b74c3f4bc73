/**
 * What the server said when it refused a request, from the SDK's `HTTPError` (`status`, and the
 * body as `text`: graphspec's `{ error, message, field, hint }`), so the page can show the message
 * and the hint and put it on the field it names.
 */
export interface ServerProblem {
  message: string;
  status: number | undefined;
  /** graphspec's error code (`invalid-input`, `invalid-context`, …). */
  code: string | undefined;
  field: string | undefined;
  hint: string | undefined;
}

const str = (v: unknown) => (typeof v === "string" && v ? v : undefined);

export function serverProblem(e: unknown): ServerProblem {
  const err = (e ?? {}) as { status?: unknown; text?: unknown; message?: unknown };
  const status = typeof err.status === "number" ? err.status : undefined;
  const message = str(err.message) ?? String(e);
  // The body: the error's `text`, or what follows "HTTP 422: " in its message.
  const raw = str(err.text) ?? /^HTTP \d{3}: ([\s\S]*)$/.exec(message)?.[1];
  let body: Record<string, unknown> = {};
  try {
    const parsed = raw ? JSON.parse(raw) : undefined;
    if (parsed && typeof parsed === "object") body = parsed;
  } catch {
    // Not JSON (a proxy's page, say): the message is all there is.
  }
  return {
    message: str(body.message) ?? str(body.detail) ?? raw ?? message,
    status,
    code: str(body.error),
    field: str(body.field),
    hint: str(body.hint),
  };
}

/** Which of the run's forms a refusal belongs to. */
export const formOfProblem = (p: ServerProblem): "input" | "context" | undefined =>
  p.code === "invalid-context" ? "context" : p.code === "invalid-input" ? "input" : undefined;
