/**
 * The secrets a `models:` mapping holds or reads, to be masked wherever they could show: values
 * under secret-looking keys at any depth (`api_key`, `apiKey`, `headers.Authorization`, …),
 * passwords in URLs (`base_url: https://user:PASSWORD@host`), and the value of every environment
 * variable a `${{ env.NAME }}` template reads — whatever its name: `env.MY_OPENAI_KEY` does not
 * look like a secret, but a spec that passes it to a model says it is one.
 */
import { ExprEnvironment, isTemplate, parseTemplate } from "../../expr/index.js";
import { isObject } from "../../spec/data.js";
import { secretValues, urlPassword } from "../../spec/secrets.js";

/** `env.NAME`, `env.?NAME` and `env["NAME"]` in a CEL expression. */
const ENV_READ =
  /\benv\s*(?:\.\s*\??\s*([A-Za-z_][A-Za-z0-9_]*)|\[\s*(?:"([^"\\]*)"|'([^'\\]*)')\s*\])/g;

type Env = Record<string, string | undefined>;

/** What one template reads from `env`: the variables it names, and each expression's value. */
function templateSecrets(template: string, env: Env): string[] {
  let parsed: ReturnType<typeof parseTemplate>;
  try {
    parsed = parseTemplate(template);
  } catch {
    return [];
  }
  const found: string[] = [];
  const expr = ExprEnvironment.for({});
  const vars = { env: Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) };
  for (const part of parsed.parts) {
    if (part.kind !== "expr" || !/\benv\b/.test(part.source)) continue;
    for (const m of part.source.matchAll(ENV_READ)) {
      const value = env[m[1] ?? m[2] ?? m[3] ?? ""];
      if (value) found.push(value, ...urlPassword(value));
    }
    // A name computed by the expression (`env["A_" + x]`) is not written out: its value is.
    try {
      const value = expr.compileTemplate(`\${{${part.source}}}`, expr.modelsScope()).evaluate(vars);
      if (typeof value === "string" && value) found.push(value, ...urlPassword(value));
    } catch {
      // A template that cannot be evaluated gives no value (model set-up reports why).
    }
  }
  return found;
}

/** The secrets of `models:` (or of one model's declaration), with `env` as templates read it. */
export function modelSecrets(models: unknown, env: Env = process.env): string[] {
  const found = secretValues(models).filter((s) => !isTemplate(s));
  const walk = (value: unknown): void => {
    if (typeof value === "string") {
      if (isTemplate(value)) found.push(...templateSecrets(value, env));
      else found.push(...urlPassword(value));
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (isObject(value)) Object.values(value).forEach(walk);
  };
  walk(models);
  return found;
}
