/**
 * Which channel types each built-in reducer can combine: `sum` of strings or `merge` of lists
 * fails (or silently gives nonsense) at the first write. The `reducer-type` rule reports a misfit,
 * and compile refuses it when called without validate.
 */

/** The `type`s each built-in reducer combines (besides `any` and no type). */
const FITS: Readonly<Record<string, readonly string[]>> = {
  append: ["array"],
  union: ["array"],
  merge: ["object"],
  sum: ["number", "integer"],
  max: ["number", "integer"],
  min: ["number", "integer"],
  messages: ["messages"],
};

const WHAT: Readonly<Record<string, string>> = {
  append: "adds items to a list",
  union: "adds items to a list",
  merge: "merges mappings",
  sum: "adds numbers",
  max: "keeps the larger number",
  min: "keeps the smaller number",
  messages: "merges chat messages",
};

/** What a built-in reducer does, as a phrase (`merges mappings`), or undefined for `replace` and others. */
export const reducerDoes = (reducer: string): string | undefined =>
  Object.hasOwn(WHAT, reducer) ? WHAT[reducer] : undefined;

/** What is wrong with a field's reducer for its type, or undefined when they fit. */
export function reducerMisfit(field: {
  type?: unknown;
  reducer?: unknown;
}): { message: string; hint: string } | undefined {
  const { type, reducer } = field;
  if (typeof reducer !== "string" || typeof type !== "string" || type === "any") return undefined;
  const fits = FITS[reducer];
  if (!fits || fits.includes(type)) return undefined;
  const fitting = Object.keys(FITS).filter((r) => FITS[r]!.includes(type));
  return {
    message: `reducer \`${reducer}\` ${WHAT[reducer]}, but the channel's type is \`${type}\``,
    hint: `set \`type: ${fits[0]}\`, or use ${[...fitting, "replace"].map((r) => `\`${r}\``).join(", ")}${type === "messages" ? "" : " (or a reducer of yours)"}`,
  };
}
