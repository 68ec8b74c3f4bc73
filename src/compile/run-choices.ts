/**
 * What a caller may choose per run, and the check that refuses a bad choice before anything runs:
 * the model (`configurable.model`, from a `models:` entry's `allow` list), the recursion limit and
 * the breakpoints (`interruptBefore` / `interruptAfter`). Plain data in, so the executor, the CLI,
 * `compile()` users and a server all check the same way.
 */
import { didYouMean, listNames } from "../diagnostics/suggest.js";
import type { GraphSpec } from "../spec/spec-types.generated.js";
import { GraphspecRunError } from "./graphspec-run-error.js";
import { preview } from "./preview.js";

export interface RunChoices {
  /** A model entry's name, or its `provider:name`, from some entry's `allow` list. */
  model?: unknown;
  recursionLimit?: unknown;
  interruptBefore?: unknown;
  interruptAfter?: unknown;
}

/** The same bounds as the spec's `limits.recursion`. */
const MAX_RECURSION = 10_000;

type Models = NonNullable<GraphSpec["models"]>;

/** The entries a choice names: by entry name, or by the `provider:name` an entry declares. */
const entriesNamed = (models: Models, choice: string): Set<string> =>
  new Set(
    Object.entries(models)
      .filter(([name, decl]) => name === choice || decl.model === choice)
      .map(([name]) => name),
  );

/**
 * The entry a node's model `entry` runs as under the run's `choice`: the first of the entry itself
 * and its `allow` list that the choice names, else the entry itself.
 */
export function modelFor(models: Models | undefined, entry: string, choice: unknown): string {
  if (typeof choice !== "string" || !models) return entry;
  const named = entriesNamed(models, choice);
  const options = [entry, ...(models[entry]?.allow ?? [])];
  return options.find((o) => named.has(o)) ?? entry;
}

function refuseModel(spec: GraphSpec, choice: unknown): GraphspecRunError | undefined {
  if (choice === undefined) return undefined;
  const models = spec.models ?? {};
  const choosers = Object.entries(models).filter(([, m]) => m.allow?.length);
  const allowed = [...new Set(choosers.flatMap(([name, m]) => [name, ...(m.allow ?? [])]))];
  const hint = choosers.length
    ? `choose one of ${listNames(allowed)} (a model's name, or its \`provider:name\`)`
    : "list the models a run may choose in a model's `allow` (docs/spec.md, Models)";
  if (typeof choice !== "string" || !choice) {
    return new GraphspecRunError(
      "model-not-allowed",
      `the run's model must be the name of a model, not ${preview(choice)}`,
      { field: "model", hint },
    );
  }
  const named = entriesNamed(models, choice);
  if (allowed.some((name) => named.has(name))) return undefined;
  const suggestion = didYouMean(choice, [
    ...allowed,
    ...allowed.map((n) => models[n]?.model ?? ""),
  ]);
  return new GraphspecRunError(
    "model-not-allowed",
    choosers.length
      ? `the run chose the model \`${choice}\`, which graph \`${spec.name}\` does not allow`
      : `the run chose the model \`${choice}\`, but graph \`${spec.name}\` lets no run choose its model`,
    { field: "model", hint: suggestion && choosers.length ? `${suggestion} ${hint}` : hint },
  );
}

function refuseBreakpoints(
  spec: GraphSpec,
  field: "interruptBefore" | "interruptAfter",
  value: unknown,
): GraphspecRunError | undefined {
  if (value === undefined) return undefined;
  const nodes = Object.keys(spec.nodes);
  if (value === "*") return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
    return new GraphspecRunError(
      "invalid-run-option",
      `the run's \`${field}\` must be a list of node names (or "*"), not ${preview(value)}`,
      { field, hint: `the graph's nodes: ${listNames(nodes)}` },
    );
  }
  const unknown = (value as string[]).find((v) => !Object.hasOwn(spec.nodes, v));
  if (unknown === undefined) return undefined;
  return new GraphspecRunError(
    "invalid-run-option",
    `the run's \`${field}\` names \`${unknown}\`, which is not a node of graph \`${spec.name}\``,
    { field, hint: didYouMean(unknown, nodes) ?? `the graph's nodes: ${listNames(nodes)}` },
  );
}

function refuseRecursion(value: unknown): GraphspecRunError | undefined {
  if (value === undefined) return undefined;
  if (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_RECURSION)
    return undefined;
  return new GraphspecRunError(
    "invalid-run-option",
    `the run's \`recursionLimit\` must be a whole number from 1 to ${MAX_RECURSION.toLocaleString("en")}, not ${preview(value)}`,
    { field: "recursionLimit", hint: "give the most super-steps the run may take, e.g. 50" },
  );
}

/** Why a run's choices are refused, or undefined when they may run. */
export function refuseRunChoices(
  spec: GraphSpec,
  choices: RunChoices,
): GraphspecRunError | undefined {
  return (
    refuseModel(spec, choices.model) ??
    refuseRecursion(choices.recursionLimit) ??
    refuseBreakpoints(spec, "interruptBefore", choices.interruptBefore) ??
    refuseBreakpoints(spec, "interruptAfter", choices.interruptAfter)
  );
}
