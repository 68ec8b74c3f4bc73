/** What a write to a channel accepts, by the channel's type and reducer (an `append` takes an item or a list of them). */
import { type ExprType, MESSAGE_TYPE, T } from "./types.js";

/** A message or anything LangGraph's messagesStateReducer coerces into one. */
const MESSAGE_LIKE = T.union([MESSAGE_TYPE, T.string, T.map(T.dyn)]);
const MESSAGES_WRITE = T.union(
  [MESSAGE_LIKE, T.list(MESSAGE_LIKE)],
  "a message, a string, a map or a list of them",
);

/**
 * What a write to a channel accepts, given the channel's type and reducer:
 * `append`/`union` take a list of items or one item; `sum`/`max`/`min` a number of the
 * channel's type; `merge` (part of) an object; `messages` a message or a list of them;
 * `replace` the channel's type itself; a reducer of the user's anything.
 */
export function writeType(channel: ExprType, field: unknown): ExprType {
  const f = (typeof field === "object" && field !== null ? field : {}) as Record<string, unknown>;
  const reducer = f.reducer ?? (f.type === "messages" ? "messages" : "replace");
  if (typeof reducer !== "string") return T.dyn;
  switch (reducer) {
    case "messages":
      return MESSAGES_WRITE;
    case "append":
    case "union":
      return channel.kind === "list" ? T.union([channel, channel.item]) : T.dyn;
    default:
      return channel;
  }
}
