/**
 * Chat mode (LangGraph Studio's, for a graph whose state has `messages`): a message box that runs
 * the graph again on the same thread with the person's message as its input — a follow-up run —
 * or, with no thread yet, starts one. Enter adds a line; Ctrl+Enter (⌘+Enter) or "Send" sends.
 */
import { useState } from "preact/hooks";

export function ChatBox(props: {
  onSend: (text: string) => void;
  disabled: boolean;
  /** A thread to follow up on: the help says where the message goes. */
  thread: string | undefined;
}) {
  const [text, setText] = useState("");
  const send = () => {
    if (props.disabled || !text.trim()) return;
    props.onSend(text);
    setText("");
  };
  return (
    <form
      aria-label="Chat"
      class="chat-box"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <div class="field">
        <label for="chat-message">Message</label>
        <textarea
          id="chat-message"
          rows={3}
          value={text}
          aria-describedby="chat-message-help"
          onInput={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              send();
            }
          }}
        />
        <p id="chat-message-help" class="help">
          {props.thread
            ? "Runs the graph again on this thread with your message added to its messages (Ctrl+Enter sends)."
            : "Starts a thread with your message as its messages (Ctrl+Enter sends)."}
        </p>
      </div>
      <p>
        <button type="submit" class="primary" disabled={props.disabled || !text.trim()}>
          Send
        </button>
      </p>
    </form>
  );
}
