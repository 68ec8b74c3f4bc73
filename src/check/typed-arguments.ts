/**
 * A tool argument written with `${{ }}` against the argument's JSON Schema: the expression
 * checker knows the template's type (`state.label` is a `string`), the schema says what the tool
 * takes (`number`); a type that cannot fit is a `tool-args` finding. Objects and lists holding
 * templates are followed into their properties and items, and the literals beside the templates
 * are checked against their own part of the schema.
 */
import {
  type ExprEnvironment,
  type ExprType,
  formatType,
  isAssignable,
  isTemplate,
  type Scope,
  typeFromSchema,
} from "../expr/index.js";
import { argumentLabel, validatorFor, valueProblems } from "../json-schema/value-problems.js";
import { isObject } from "../spec/data.js";
import type { Path } from "../spec/source-map.js";
import type { CheckContext } from "./check-context.js";
import { conversionHint } from "./expressions/check-sites.js";
import { describeType } from "./expressions/finding.js";

type Obj = Record<string, unknown>;

/** Whether a value holds `${{ }}` anywhere. */
export const hasTemplate = (v: unknown): boolean =>
  typeof v === "string"
    ? isTemplate(v)
    : Array.isArray(v)
      ? v.some(hasTemplate)
      : isObject(v) && Object.values(v).some(hasTemplate);

export interface ArgumentSite {
  ctx: CheckContext;
  env: ExprEnvironment;
  scope: Scope;
  /** The whole argument schema, for `$ref`s. */
  root: Obj;
  /** Where the values stand in the spec: a node's `args`, a tool's `bind`. */
  base: Path;
}

/**
 * The values a template may give, when it reads one declared enum as it is (`${{ state.kind }}`):
 * CEL types strings without their enum, the channel's declaration keeps it.
 */
function enumRead(env: ExprEnvironment, source: string): readonly string[] | undefined {
  const read = /^\$\{\{\s*(state|context)\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/.exec(source);
  if (!read) return undefined;
  const field = (read[1] === "state" ? env.state : env.context).fields[read[2] ?? ""];
  return field?.kind === "string" ? field.enum : undefined;
}

const JSON_TYPE_WORDS: Record<string, string> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "a boolean",
  array: "a list",
  object: "an object",
  null: "null",
};

/** What the argument takes, in JSON Schema's words when it says a plain type. */
function takes(schema: Obj, expected: ExprType): string {
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(
    (t): t is string => typeof t === "string" && Object.hasOwn(JSON_TYPE_WORDS, t),
  );
  return types.length ? types.map((t) => JSON_TYPE_WORDS[t]).join(" or ") : describeType(expected);
}

/**
 * Checks `value` (an argument, or a part of one at `path` below `args`) against `schema`. Only
 * values holding a template come here; literals are checked whole by the caller.
 */
export function checkTypedArgument(
  site: ArgumentSite,
  path: (string | number)[],
  value: unknown,
  schema: unknown,
): void {
  const { ctx, env, scope, root, base } = site;
  if (!isObject(schema)) return;
  const at = [...base, ...path];
  if (typeof value === "string") {
    const r = env.checkTemplate(value, scope);
    // What does not parse or type-check is the expression rules' to report.
    if (r.problems.length || !r.type) return;
    const expected = typeFromSchema(schema, "Argument", root);
    const label = argumentLabel(path);
    if (!isAssignable(r.type, expected, { nullable: false })) {
      ctx.report("tool-args", at, {
        message: `${label} takes ${takes(schema, expected)}, but this template gives a \`${formatType(r.type)}\``,
        hint:
          conversionHint(r.type, expected) ??
          "give it a value of the argument's type, or change the tool's schema",
      });
      return;
    }
    const allowed = expected.kind === "string" ? expected.enum : undefined;
    const outside = allowed && enumRead(env, value)?.filter((v) => !allowed.includes(v));
    if (allowed && outside?.length)
      ctx.report("tool-args", at, {
        message: `${label} must be one of ${allowed.map((v) => `"${v}"`).join(", ")}, but this template may give ${outside.map((v) => `"${v}"`).join(", ")}`,
        hint: "map the values the tool does not take, or make the channel's enum the tool's",
      });
    return;
  }
  if (Array.isArray(value)) {
    const items = isObject(schema.items) ? schema.items : undefined;
    value.forEach((item, i) => {
      checkPart(site, [...path, i], item, items);
    });
    return;
  }
  if (isObject(value) && isObject(schema.properties)) {
    const properties = schema.properties;
    for (const [key, item] of Object.entries(value)) {
      if (Object.hasOwn(properties, key)) checkPart(site, [...path, key], item, properties[key]);
    }
  }
}

/** A part of an argument: a template (or a structure holding one) is typed; a literal is validated. */
export function checkPart(
  site: ArgumentSite,
  path: (string | number)[],
  value: unknown,
  schema: unknown,
): void {
  if (hasTemplate(value)) {
    checkTypedArgument(site, path, value, schema);
    return;
  }
  if (!isObject(schema)) return;
  const validate = validatorFor({ ...withoutId(site.root), ...schema });
  if (!validate) return;
  for (const p of valueProblems(validate, value, (sub) => argumentLabel([...path, ...sub]))) {
    site.ctx.report("tool-args", [...site.base, ...path, ...p.path], {
      message: p.message,
      hint: p.hint,
      replacement: p.replacement,
      at: p.at,
    });
  }
}

/** The root's `$defs` (for `$ref`s) without the keywords that would apply the root's own shape. */
function withoutId(root: Obj): Obj {
  const defs: Obj = {};
  for (const key of ["$defs", "definitions"]) if (root[key] !== undefined) defs[key] = root[key];
  return defs;
}
