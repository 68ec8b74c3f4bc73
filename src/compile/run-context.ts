/**
 * The run's context: declared defaults filled in, `required: true` values demanded, declared
 * types checked — once per context object, before any node uses it. Keys the spec does not
 * declare pass through (a subgraph runs with its parent's context).
 */
import { isObject } from "../spec/data.js";
import type { GraphSpec } from "../spec/spec-types.generated.js";
import { GraphspecRunError } from "./graphspec-run-error.js";
import { preview } from "./preview.js";
import { fieldJsonSchema, type ValueCheck, valueCheck } from "./value-check.js";

export type ResolveContext = (raw: unknown, node?: string) => Record<string, unknown>;

export function contextResolver(spec: GraphSpec): ResolveContext {
  const fields = Object.entries(spec.context ?? {});
  const defaults = fields.filter(([, f]) => Object.hasOwn(f, "default"));
  const required = fields.filter(([, f]) => f.required === true).map(([k]) => k);
  const checks = new Map<string, ValueCheck>(
    fields.map(([k, f]) => [k, valueCheck(fieldJsonSchema(f))]),
  );
  const resolved = new WeakMap<object, Record<string, unknown>>();

  const resolve = (raw: unknown, node?: string): Record<string, unknown> => {
    const where = node ? { node } : {};
    if (raw !== undefined && raw !== null && !isObject(raw)) {
      throw new GraphspecRunError(
        "invalid-context",
        `the run's context must be a mapping, not ${preview(raw)}`,
        {
          ...where,
          hint: 'pass context as an object, e.g. `{ user_id: "u-1" }`',
        },
      );
    }
    const given = (raw ?? {}) as Record<string, unknown>;
    // The given object itself when there is nothing to fill in: callers can tell nothing changed.
    let out = given;
    for (const [key, field] of defaults) {
      if (out[key] !== undefined) continue;
      if (out === given) out = { ...given };
      out[key] = JSON.parse(JSON.stringify(field.default));
    }
    const missing = required.filter((k) => out[k] === undefined);
    if (missing.length) {
      throw new GraphspecRunError(
        "invalid-context",
        `the run's context is missing ${missing.map((k) => `\`${k}\``).join(", ")}, which the spec requires`,
        {
          ...where,
          field: missing[0]!,
          hint: `pass it with the run: context \`{ ${missing[0]}: … }\``,
        },
      );
    }
    for (const [key, check] of checks) {
      if (out[key] === undefined) continue;
      const problem = check(out[key], `context.${key}`)[0];
      if (problem) {
        throw new GraphspecRunError("invalid-context", `the run's context: ${problem.message}`, {
          ...where,
          field: key,
          hint:
            problem.hint ?? `give \`${key}\` a value that matches its declaration in \`context\``,
        });
      }
    }
    return out;
  };

  // A run without context resolves the same way every time: defaults only.
  let withoutContext: Record<string, unknown> | undefined;
  return (raw, node) => {
    if (raw === undefined || raw === null) {
      withoutContext ??= Object.freeze(resolve(raw, node));
      return withoutContext;
    }
    if (!isObject(raw)) return resolve(raw, node);
    let out = resolved.get(raw);
    if (!out) {
      out = resolve(raw, node);
      resolved.set(raw, out);
    }
    return out;
  };
}
