/**
 * Why a failed thread failed, on its page: the server keeps the failure with the thread
 * (`Thread.error`: code, message, node, hint — the run stream's `error` event, read back), so it
 * is shown after a reload, a restart, or a link, as the run view showed it when it happened.
 */
import type { Thread } from "@langchain/langgraph-sdk";
import { FailureNote } from "../runs/run-panels.js";
import { failureOfThread } from "../runs/thread-progress.js";

export function ThreadFailure(props: { thread: Thread }) {
  if (props.thread.status !== "error") return null;
  const { message, detail } = failureOfThread((props.thread as { error?: unknown }).error);
  return <FailureNote kind="thread" message={message} detail={detail} />;
}
