/**
 * Writes a channel's declared type would take but its reducer refuses: `merge` on an `any`
 * channel takes only maps, `sum` only numbers, `messages` only messages — the write guard refuses
 * anything else on the first run (compile/write-guard.ts). These are `reducer-write` findings,
 * told apart from a value that does not fit the channel's type at all (`expression-type`).
 */
import { type ExprType, isAssignable } from "../../expr/index.js";
import { reducerDoes } from "../../spec/reducer-fit.js";
import { describeType } from "./finding.js";

/** What a channel's reducer takes, beside what its declared type takes. */
export interface ReducerExpectation {
  reducer: string;
  /** The channel written. */
  channel: string;
  /** The channel's declared type: a value that fits it but not the reducer is the reducer's finding. */
  declared: ExprType;
  mismatch(actual: string): string;
  hint: string;
}

const HINTS: Record<string, (channel: string) => string> = {
  merge: (c) =>
    `write a map (\`{ key: value }\`), or declare \`${c}\` with \`reducer: replace\` to store any value`,
  sum: (c) => `write a number, or declare \`${c}\` with \`reducer: replace\` to store any value`,
  messages: () =>
    "write a string, a map with `role` and `content` (e.g. `{ role: user, content: hi }`), or a list of them",
};

/** The reducer side of a write into channel `key`; undefined when the reducer takes all its type does. */
export function reducerExpectation(
  key: string,
  reducer: string | undefined,
  declared: ExprType,
  accepts: ExprType,
): ReducerExpectation | undefined {
  // `append` and `union` take what their list's type takes (a list or one item): a value that
  // fits the list fits the write, so none is ever the reducer's finding.
  const does = reducer && reducerDoes(reducer);
  if (!does) return undefined;
  const hint = (HINTS[reducer] ?? HINTS.sum!)(key);
  return {
    reducer,
    channel: key,
    declared,
    mismatch: (actual) =>
      `cannot write ${actual} to \`${key}\`: its reducer \`${reducer}\` ${does}, so it takes ${describeType(accepts)}`,
    hint,
  };
}

/** Whether a value of type `actual`, which does not fit the write, would fit the channel's type. */
export const refusedByReducer = (
  r: ReducerExpectation | undefined,
  actual: ExprType,
): r is ReducerExpectation =>
  r !== undefined && isAssignable(actual, r.declared, { nullable: true });
