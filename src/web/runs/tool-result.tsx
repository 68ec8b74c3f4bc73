/**
 * A tool call's result in the Tool calls panel: as text or JSON — or, for a tool that returned a
 * LangGraph `Command`, what the Command does (tool-command.ts): the answer the model gets, the state
 * keys it writes with their values, and where it sends the run, instead of the Command's raw JSON.
 */
import { toolCommandOf } from "./tool-command.js";

export const shownValue = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v, null, 2));

/** A block that may scroll (style.css caps its height): focusable, so a keyboard can scroll it. */
export function CodeBlock(props: { text: string; class?: string | undefined }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to be scrolled without a mouse.
    <pre class={props.class} tabIndex={0}>
      {props.text}
    </pre>
  );
}

export function ToolResult(props: { result: unknown; failed?: boolean | undefined }) {
  const command = props.failed ? undefined : toolCommandOf(props.result);
  if (!command)
    return (
      <CodeBlock text={shownValue(props.result)} class={props.failed ? "failed" : undefined} />
    );
  const where = command.goto.length ? `goes to ${command.goto.join(", ")}` : "";
  return (
    <div class="tool-command">
      {command.answer !== undefined ? <CodeBlock text={command.answer} /> : null}
      <p class="command-note">
        A <code>Command</code>
        {command.updates.length
          ? ` that writes ${command.updates.map((u) => u.key).join(", ")}`
          : " that writes nothing"}
        {where ? `, and ${where}` : ""}
        {command.resume !== undefined ? `, resuming with ${JSON.stringify(command.resume)}` : ""}:
      </p>
      {command.updates.length ? (
        <dl class="command-updates" aria-label="State it writes">
          {command.updates.map((u) => (
            <div key={u.key}>
              <dt>
                <code>{u.key}</code>
              </dt>
              <dd>
                <CodeBlock text={shownValue(u.value)} />
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
    </div>
  );
}
