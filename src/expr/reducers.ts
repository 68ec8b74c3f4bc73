/**
 * What a write to a channel accepts, by the channel's type and reducer: the type a built-in
 * reducer combines (compile/reducers.ts, compile/write-guard.ts), even where the channel is `any`.
 */
import { type ExprType, T } from "./types.js";

/**
 * A map LangGraph's messagesStateReducer turns into a message: `content` and a string `role` (or
 * `type`), any other field besides. A Message (`state.messages[0]`) has `type` and `content`.
 */
const messageMap = (kind: "role" | "type"): ExprType => ({
  kind: "record",
  name: `MessageLike.${kind}`,
  fields: { [kind]: T.string, content: T.dyn },
  label: `{${kind}, content}`,
  required: [kind, "content"],
  open: true,
});
const MESSAGE_LIKE = T.union([T.string, messageMap("role"), messageMap("type")]);
const MESSAGES_WRITE = T.union(
  [MESSAGE_LIKE, T.list(MESSAGE_LIKE)],
  "a message (a string, or a map with `role` and `content`) or a list of them",
);
/** What `merge` combines when the channel's type does not say: a map of any fields. */
const MERGE_ANY = T.union([T.map(T.dyn)], "a map");
/** What `sum`/`max`/`min` combine when the channel's type does not say: a number. */
const NUMBER_ANY = T.union([T.double], "a number");

/** The built-in reducer of a state field (`messages` for a message channel), or undefined for one of the user's. */
export function reducerName(field: unknown): string | undefined {
  const f = (typeof field === "object" && field !== null ? field : {}) as Record<string, unknown>;
  const reducer = f.reducer ?? (f.type === "messages" ? "messages" : "replace");
  return typeof reducer === "string" ? reducer : undefined;
}

/**
 * What a write to a channel accepts, given the channel's type and reducer:
 * `append`/`union` take a list of items or one item; `sum`/`max`/`min` a number of the
 * channel's type (any number on an `any` channel); `merge` (part of) an object (any map on an
 * `any` channel); `messages` a message or a list of them; `replace` the channel's type itself; a
 * reducer of the user's anything.
 */
export function writeType(channel: ExprType, field: unknown): ExprType {
  const reducer = reducerName(field);
  if (reducer === undefined) return T.dyn;
  switch (reducer) {
    case "messages":
      return MESSAGES_WRITE;
    case "append":
    case "union":
      return channel.kind === "list" ? T.union([channel, channel.item]) : T.dyn;
    case "merge":
      return channel.kind === "dyn" ? MERGE_ANY : channel;
    case "sum":
    case "max":
    case "min":
      return channel.kind === "dyn" ? NUMBER_ANY : channel;
    default:
      return channel;
  }
}
