/** What a run shows as it goes: its status, each node's streamed text, its tool calls, its usage. */
import type { ErrorDetail, RunProgress, RunStatus, ToolCall } from "./run-progress.js";
import { CodeBlock, shownValue, ToolResult } from "./tool-result.js";

const STATUS_TEXT: Record<RunStatus, string> = {
  running: "Running…",
  interrupted: "Paused: waiting for an answer",
  success: "Finished",
  error: "Failed",
  cancelled: "Cancelled",
};

/** The run's status, announced politely; `data-run-status` for tests and styles. */
export function RunStatusLine(props: {
  progress: RunProgress;
  thread: string | undefined;
  /** Held by a static breakpoint before these nodes (no question to answer). */
  pausedBefore?: string[];
}) {
  const { status } = props.progress;
  const before = status === "interrupted" ? (props.pausedBefore ?? []) : [];
  return (
    <p role="status" class={`run-status ${status ?? "idle"}`} data-run-status={status}>
      {before.length
        ? `Paused before ${before.join(", ")}`
        : status
          ? STATUS_TEXT[status]
          : "Not started"}
      {props.thread ? (
        <span class="thread" title={props.thread}>
          {" "}
          · thread {props.thread}
        </span>
      ) : null}
    </p>
  );
}

/**
 * Why the run failed, under its status: the message, the run error catalog's code (docs/errors.md)
 * and the hint that says how to fix it — a block that wraps within the page, not a one-line pill.
 */
export function RunFailureNote(props: { progress: RunProgress }) {
  const { status, error, errorDetail } = props.progress;
  if (status !== "error" || !error) return null;
  return <FailureNote kind="run" message={error} detail={errorDetail} />;
}

/** A failure's block: "The run failed" (a run view) or "The last run failed" (a thread's page). */
export function FailureNote(props: {
  kind: "run" | "thread";
  message: string;
  detail: ErrorDetail | undefined;
}) {
  const d = props.detail;
  const title = props.kind === "run" ? "The run failed" : "The last run failed";
  return (
    <div role="alert" class={`form-problem ${props.kind}-failure`}>
      <p>
        <strong>
          {title}
          {d?.node ? ` at ${d.node}` : ""}:
        </strong>{" "}
        {props.message}
        {d?.code ? (
          <>
            {" "}
            <code class="error-code">{d.code}</code>
          </>
        ) : null}
      </p>
      {d?.hint ? <p class="help">{d.hint}</p> : null}
    </div>
  );
}

export function MessagesPanel(props: { progress: RunProgress }) {
  const { messages } = props.progress;
  return (
    <section aria-label="Messages" class="panel">
      <h3>Messages</h3>
      {messages.length ? (
        <ol class="messages">
          {messages.map((m) => (
            <li key={m.id} class={`message role-${m.role ?? "ai"}${m.failed ? " failed" : ""}`}>
              <span class="node-name">
                {m.role === "tool"
                  ? `tool ${m.node}${m.failed ? " (failed)" : ""}`
                  : m.role === "system"
                    ? "system"
                    : m.node || "model"}
              </span>
              {m.text ? <p class="text">{m.text}</p> : null}
              {(m.toolCalls ?? []).map((c, j) => (
                <code key={j} class="message-tool-call">
                  calls {c.name}({JSON.stringify(c.args)})
                </code>
              ))}
            </li>
          ))}
        </ol>
      ) : (
        <p class="hint">No messages yet.</p>
      )}
    </section>
  );
}

function ToolCallItem(props: { call: ToolCall }) {
  const c = props.call;
  return (
    <li class={`tool-call${c.failed ? " failed" : ""}`}>
      <span class="tool-name">{c.name}</span> <span class="node-name">in {c.node}</span>
      <dl>
        <dt>Arguments</dt>
        <dd>
          <CodeBlock text={shownValue(c.args)} />
        </dd>
        <dt>{c.failed ? "Error" : "Result"}</dt>
        <dd>
          {"result" in c ? (
            <ToolResult result={c.result} failed={c.failed} />
          ) : (
            <span class="hint">running…</span>
          )}
        </dd>
      </dl>
    </li>
  );
}

export function ToolCallsPanel(props: { progress: RunProgress }) {
  const calls = props.progress.toolCalls;
  return (
    <section aria-label="Tool calls" class="panel">
      <h3>Tool calls</h3>
      {calls.length ? (
        <ol class="tool-calls">
          {calls.map((c) => (
            <ToolCallItem key={c.id} call={c} />
          ))}
        </ol>
      ) : (
        <p class="hint">No tool calls yet.</p>
      )}
    </section>
  );
}

export function UsagePanel(props: { progress: RunProgress; cost?: string | undefined }) {
  const u = props.progress.usage;
  return (
    <section aria-label="Usage" class="panel">
      <h3>Usage</h3>
      {/* Each figure in its own div (allowed in a dl): the panel shows them as one row. */}
      <dl class="usage">
        <div>
          <dt>Input tokens</dt>
          <dd data-usage="input">{u.input}</dd>
        </div>
        <div>
          <dt>Output tokens</dt>
          <dd data-usage="output">{u.output}</dd>
        </div>
        <div>
          <dt>Total tokens</dt>
          <dd data-usage="total">{u.total}</dd>
        </div>
        {props.cost !== undefined ? (
          <div>
            <dt>Cost</dt>
            <dd data-usage="cost">{props.cost}</dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}
