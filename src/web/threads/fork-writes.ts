/**
 * What a fork writes for the keys a person edited. LangGraph's `updateState` (and so the SDK's
 * `threads.updateState`) sends each value through its channel's reducer: editing a `sum` channel
 * from 1 to 200 writes 201. The fork dialog writes a value **as shown** unless told otherwise: a
 * channel with a reducer gets LangGraph's `Overwrite` (`{ __overwrite__: value }`), which bypasses
 * its reducer; a `messages` channel, whose reducer turns `{ type, content }` maps into messages,
 * gets its whole list again after LangGraph's "remove all messages" marker, so it stays messages.
 * Pure, so it is tested without a browser.
 */
import { changedKeys } from "./values-diff.js";

/** The reducers of a graph's channels, by channel (`metadata.graphspec.reducers`; absent: replace). */
export type Reducers = Record<string, string>;

/** What writing `value` through each reducer does, said to the person editing. */
const THROUGH: Record<string, string> = {
  append: "appends the list to the current one",
  union: "adds the list's items the current one lacks",
  merge: "merges the keys into the current object",
  sum: "adds the number to the current one",
  max: "keeps the larger of the two",
  min: "keeps the smaller of the two",
  messages: "adds the messages, replacing those with the same id",
  custom: "calls the spec's reducer with the current value and this one",
};

export const throughReducer = (reducer: string): string =>
  THROUGH[reducer] ?? `goes through the \`${reducer}\` reducer`;

/** LangGraph's marker (`REMOVE_ALL_MESSAGES`): a messages reducer drops every message before it. */
const REMOVE_ALL = { type: "remove", id: "__remove_all__" };

/** The values to send for the edited keys: as shown (`asShown`), or through the reducers. */
export function forkWrites(
  original: Record<string, unknown>,
  edited: Record<string, unknown>,
  reducers: Reducers,
  asShown: boolean,
): Record<string, unknown> {
  const changed = changedKeys(original, edited);
  if (!asShown) return changed;
  return Object.fromEntries(
    Object.entries(changed).map(([key, value]) => {
      const reducer = reducers[key];
      if (reducer === undefined) return [key, value];
      if (reducer === "messages" && Array.isArray(value)) return [key, [REMOVE_ALL, ...value]];
      return [key, { __overwrite__: value }];
    }),
  );
}
