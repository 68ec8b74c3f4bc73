import { asObject as obj } from "../../spec/data.js";
import { regexProblem } from "../../spec/linear-regex.js";
import type { Path } from "../../spec/source-map.js";
import { expressionFindings } from "../expressions/per-document.js";
import type { Rule } from "../rule.js";

/** The schema keywords of a field declaration that hold schemas, and so may hold patterns. */
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "dependentSchemas"];
const SCHEMA_ONE = ["items", "additionalProperties", "contains", "not", "if", "then", "else"];
const SCHEMA_LISTS = ["prefixItems", "allOf", "anyOf", "oneOf"];

type Found = [Path, string, "key" | "value"];

/**
 * Every `pattern` and `patternProperties` key under a field declaration, with its path. Paths
 * are built only on the way into a sub-schema that is there: most declarations have none.
 */
function patterns(schema: unknown, path: Path, out: Found[] = [], depth = 0): Found[] {
  const s = obj(schema);
  if (!s || depth > 32) return out;
  if (typeof s.pattern === "string") out.push([[...path, "pattern"], s.pattern, "value"]);
  const keyed = obj(s.patternProperties);
  if (keyed)
    for (const key of Object.keys(keyed))
      out.push([[...path, "patternProperties", key], key, "key"]);
  for (const k of SCHEMA_MAPS) {
    const map = obj(s[k]);
    if (map)
      for (const [name, sub] of Object.entries(map))
        patterns(sub, [...path, k, name], out, depth + 1);
  }
  for (const k of SCHEMA_ONE) if (obj(s[k])) patterns(s[k], [...path, k], out, depth + 1);
  for (const k of SCHEMA_LISTS) {
    const list = s[k];
    if (Array.isArray(list))
      list.forEach((sub, i) => {
        if (obj(sub)) patterns(sub, [...path, k, i], out, depth + 1);
      });
  }
  return out;
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
