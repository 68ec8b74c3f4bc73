/**
 * The run's context: declared defaults filled in, `required: true` values demanded, declared
 * types checked — once per context object, before any node uses it. Keys the spec does not
 * declare pass through (a subgraph runs with its parent's context).
 */
import { isObject } from "../spec/data.js";
import { isSecretKey } from "../spec/secrets.js";
import type { GraphSpec } from "../spec/spec-types.generated.js";
import { GraphspecRunError } from "./graphspec-run-error.js";
import { preview } from "./preview.js";
import { fieldJsonSchema, type ValueCheck, valueCheck } from "./value-check.js";

export type ResolveContext = (raw: unknown, node?: string) => Record<string, unknown>;

/**
 * Marks a context given without its secrets on purpose: a state update (a fork) runs with the
 * context the thread kept, which never holds a secret, and runs no node — only edges, where a
 * secret is never in scope — so a required secret field is not demanded there. A symbol: it
 * survives LangGraph's copies of the config and never reaches JSON.
 */
const SECRETS_WITHHELD = Symbol.for("graphspec.secretsWithheld");

/** `context` as a state update passes it: its secret fields may be missing (above). */
export const withheldSecrets = (context: Record<string, unknown>): Record<string, unknown> => ({
  ...context,
  [SECRETS_WITHHELD]: true,
});

/** The required fields of a spec's context, and which of them are secrets. */
function requiredFields(spec: GraphSpec): { required: string[]; secret: Set<string> } {
  const fields = Object.entries(spec.context ?? {});
  return {
    required: fields.filter(([, f]) => f.required === true).map(([k]) => k),
    secret: new Set(fields.filter(([k, f]) => f.secret === true || isSecretKey(k)).map(([k]) => k)),
  };
}

function missingContext(
  missing: string[],
  secret: Set<string>,
  where: { node?: string },
): GraphspecRunError {
  const first = missing[0]!;
  // A secret is never kept with the thread: a run or resume on it passes it again.
  const hint = secret.has(first)
    ? `\`${first}\` is a secret, not kept with the thread: pass it with every run and resume on it, context \`{ ${first}: … }\``
    : `pass it with the run: context \`{ ${first}: … }\``;
  return new GraphspecRunError(
    "invalid-context",
    `the run's context is missing ${missing.map((k) => `\`${k}\`${secret.has(k) ? " (a secret)" : ""}`).join(", ")}, which the spec requires`,
    { ...where, field: first, hint },
  );
}

/**
 * The required secret fields `context` does not give, as the run would be refused for them; known
 * before the run starts, since a thread never keeps a secret (a queued run is refused at once,
 * not when it is taken).
 */
export function missingSecrets(
  spec: GraphSpec,
  context: Record<string, unknown> | undefined,
): GraphspecRunError | undefined {
  const { required, secret } = requiredFields(spec);
  const declared = spec.context ?? {};
  const missing = required.filter(
    (k) => secret.has(k) && context?.[k] === undefined && !Object.hasOwn(declared[k]!, "default"),
  );
  return missing.length ? missingContext(missing, secret, {}) : undefined;
}

export function contextResolver(spec: GraphSpec): ResolveContext {
  const fields = Object.entries(spec.context ?? {});
  const defaults = fields.filter(([, f]) => Object.hasOwn(f, "default"));
  const { required, secret } = requiredFields(spec);
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
    const withheld = (given as { [SECRETS_WITHHELD]?: boolean })[SECRETS_WITHHELD] === true;
    const missing = required.filter((k) => out[k] === undefined && !(withheld && secret.has(k)));
    if (missing.length) throw missingContext(missing, secret, where);
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
