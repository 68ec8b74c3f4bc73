/**
 * Which script stands in for a model: the one rule every way of giving scripts follows (compile(),
 * createExecutor(), `graphspec run`/`dev --scripts`, `graphspec test`, GRAPHSPEC_SCRIPTS). The
 * model of `models:` entry ENTRY, declared `model: "provider:name"`, answers from the first script
 * given under
 *   1. for `scripted:NAME`, NAME: the spec names that model's script itself;
 *   2. ENTRY, the entry's name (`writer`): one entry, so it wins over
 *   3. the `model` string as written (`openai:gpt-4o-mini`), which every entry declaring it shares.
 * No LangChain here: the rule is data, so the docs and every caller read the same thing.
 */

/** The keys a script for this model may have, in the order they are tried. */
export function scriptKeys(entry: string, model: string): string[] {
  const named = model.startsWith("scripted:") ? [model.slice("scripted:".length)] : [];
  return [...new Set([...named, entry, model])];
}

/** The key of the script that answers for this model, or undefined when none is given. */
export function scriptKey(
  entry: string,
  model: string,
  given: (key: string) => boolean,
): string | undefined {
  return scriptKeys(entry, model).find(given);
}
