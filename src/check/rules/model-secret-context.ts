import { isObject } from "../../spec/data.js";
import { isSecretKey } from "../../spec/secrets.js";
import type { Path } from "../../spec/source-map.js";
import type { Rule } from "../rule.js";

/** `context.KEY`, `context.?KEY` and `context["KEY"]` in a template's expressions. */
const CONTEXT_READ =
  /\bcontext\s*(?:\.\s*\??\s*([A-Za-z_][A-Za-z0-9_]*)|\[\s*(?:"([^"\\]*)"|'([^'\\]*)')\s*\])/g;

/**
 * A model's credential (`api_key`, a header such as `Authorization`: any secret-looking key) read
 * from the run's context must come from a context key that is a secret — declared `secret: true`,
 * or named like one (`api_key`, `token`, …). Only those are masked by value in events, run
 * records, checkpoints and errors, and left out of what a thread stores; any other context key is
 * stored with the thread and shown as given.
 */
export const modelSecretContext: Rule = {
  name: "model-secret-context",
  check(ctx) {
    const models = isObject(ctx.spec.models) ? ctx.spec.models : {};
    const declared = isObject(ctx.spec.context) ? ctx.spec.context : {};
    const secret = (key: string) =>
      isSecretKey(key) || (isObject(declared[key]) && declared[key].secret === true);
    const visit = (value: unknown, path: Path, underSecret: boolean, model: string): void => {
      if (isObject(value)) {
        for (const [k, v] of Object.entries(value))
          visit(v, [...path, k], underSecret || isSecretKey(k), model);
        return;
      }
      if (typeof value !== "string" || !underSecret || !value.includes("${{")) return;
      for (const m of value.matchAll(CONTEXT_READ)) {
        const key = m[1] ?? m[2] ?? m[3] ?? "";
        if (secret(key)) continue;
        const field = path.slice(2).join(".");
        ctx.report("model-secret-context", path, {
          message: `model \`${model}\`: \`${field}\` reads \`context.${key}\`, which is not a secret: the run's context keeps it with the thread and shows it unmasked`,
          hint: `declare it in \`context\` as \`${key}: { type: string, secret: true }\``,
        });
      }
    };
    for (const [name, decl] of Object.entries(models)) visit(decl, ["models", name], false, name);
  },
};
