import { asObject as obj } from "../../spec/data.js";
import { regexProblem } from "../../spec/linear-regex.js";
import type { Path } from "../../spec/source-map.js";
import { expressionFindings } from "../expressions/per-document.js";
import type { Rule } from "../rule.js";

/** The schema keywords of a field declaration that hold schemas, and so may hold patterns. */
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "dependentSchemas"];
const SCHEMA_ONE = ["items", "additionalProperties", "contains", "not", "if", "then", "else"];
const SCHEMA_LISTS = ["prefixItems", "allOf", "anyOf", "oneOf"];

/** Every `pattern` and `patternProperties` key under a field declaration, with its path. */
function* patterns(
  schema: unknown,
  path: Path,
  depth = 0,
): Generator<[Path, string, "key" | "value"]> {
  const s = obj(schema);
  if (!s || depth > 32) return;
  if (typeof s.pattern === "string") yield [[...path, "pattern"], s.pattern, "value"];
  for (const key of Object.keys(obj(s.patternProperties) ?? {}))
    yield [[...path, "patternProperties", key], key, "key"];
  for (const k of SCHEMA_MAPS)
    for (const [name, sub] of Object.entries(obj(s[k]) ?? {}))
      yield* patterns(sub, [...path, k, name], depth + 1);
  for (const k of SCHEMA_ONE) yield* patterns(s[k], [...path, k], depth + 1);
  for (const k of SCHEMA_LISTS) {
    const list = s[k];
    if (Array.isArray(list))
      for (const [i, sub] of list.entries()) yield* patterns(sub, [...path, k, i], depth + 1);
  }
}

/**
 * Patterns run on RE2, in linear time (spec/linear-regex.ts): a state channel's or context
 * value's `pattern` (at any depth of its declaration) and a regex literal given to `matches()`
 * must be ones it can run. Schemas of interrupts, outputs and tools are checked by their own
 * rules, which compile them on the same engine.
 */
export const regex: Rule = {
  name: "regex",
  check(ctx) {
    for (const section of ["state", "context"] as const) {
      for (const [name, field] of Object.entries(obj(ctx.spec[section]) ?? {})) {
        for (const [path, pattern, at] of patterns(field, [section, name])) {
          const p = regexProblem(pattern);
          if (p) ctx.report("regex", path, { message: p.message, hint: p.hint, at });
        }
      }
    }
    for (const f of expressionFindings(ctx)) {
      if (f.rule === "regex") ctx.report(f.rule, f.path, f);
    }
  },
};
