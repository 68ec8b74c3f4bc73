/**
 * Why a failed thread failed, on its page: the server keeps the failure with the thread
 * (`Thread.error`: code, message, node, hint — the run stream's `error` event, read back), so it
 * is shown after a reload, a restart, or a link, as the run view showed it when it happened.
 */
import type { Thread } from "@langchain/langgraph-sdk";

export interface ThreadError {
  code?: string;
  message: string;
  hint?: string;
  node?: string;
}

const text = (v: unknown) => (typeof v === "string" && v ? v : undefined);

/** The thread's error as the server sends it (`{ error, message, hint?, node? }`), or a string. */
export function threadError(thread: Thread): ThreadError | undefined {
  if (thread.status !== "error") return undefined;
  const e: unknown = (thread as { error?: unknown }).error;
  if (typeof e === "string") return { message: e };
  if (!e || typeof e !== "object") return { message: "The last run failed." };
  const r = e as Record<string, unknown>;
  const found: ThreadError = { message: text(r.message) ?? "The last run failed." };
  const code = text(r.error);
  const hint = text(r.hint);
  const node = text(r.node);
  if (code) found.code = code;
  if (hint) found.hint = hint;
  if (node) found.node = node;
  return found;
}

export function ThreadFailure(props: { thread: Thread }) {
  const e = threadError(props.thread);
  if (!e) return null;
  return (
    <div role="alert" class="form-problem thread-failure">
      <p>
        <strong>The last run failed{e.node ? ` at ${e.node}` : ""}:</strong> {e.message}
        {e.code ? (
          <>
            {" "}
            <code class="error-code">{e.code}</code>
          </>
        ) : null}
      </p>
      {e.hint ? <p class="help">{e.hint}</p> : null}
    </div>
  );
}
