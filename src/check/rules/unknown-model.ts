import { listNames, suggest } from "../../diagnostics/suggest.js";
import { isObject } from "../../spec/data.js";
import type { Rule } from "../rule.js";

/** A `provider:name` string, as `models.*.model` takes it. */
const PROVIDER_MODEL = /^[a-z][\w-]*:\S+$/i;

/** A model name to suggest for a `provider:name` string: `openai:gpt-4o` → `gpt_4o`. */
const nameFor = (model: string): string =>
  model
    .slice(model.indexOf(":") + 1)
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_")
    .replace(/^_+|_+$/g, "") || "main";

/**
 * llm and agent nodes use a model declared in `models` (named, or `default`), and a model's
 * `allow` list names models declared there.
 */
export const unknownModel: Rule = {
  name: "unknown-model",
  check(ctx) {
    const models = isObject(ctx.spec.models) ? ctx.spec.models : {};
    const names = Object.keys(models);
    for (const [entry, decl] of Object.entries(models)) {
      const allow = isObject(decl) ? decl.allow : undefined;
      if (!Array.isArray(allow)) continue;
      allow.forEach((allowed, i) => {
        if (typeof allowed !== "string" || Object.hasOwn(models, allowed)) return;
        const declaredAs = names.find(
          (n) => isObject(models[n]) && (models[n] as { model?: unknown }).model === allowed,
        );
        ctx.report("unknown-model", ["models", entry, "allow", i], {
          message: `model \`${entry}\` allows \`${allowed}\`, which is not declared in \`models\``,
          hint: declaredAs
            ? {
                hint: `\`${allowed}\` is declared as \`${declaredAs}\`: write \`${declaredAs}\``,
                replacement: declaredAs,
              }
            : PROVIDER_MODEL.test(allowed)
              ? `\`allow\` lists models by their name under \`models\`: declare \`${nameFor(allowed)}: { model: "${allowed}" }\` and allow \`${nameFor(allowed)}\``
              : (suggest(allowed, names) ?? `declared models: ${listNames(names)}`),
        });
      });
    }
    for (const [name, node] of Object.entries(ctx.spec.nodes ?? {})) {
      if (!isObject(node) || (node.kind !== "llm" && node.kind !== "agent")) continue;
      const model = node.model;
      if (typeof model === "string") {
        if (Object.hasOwn(models, model)) continue;
        const declaredAs = names.find(
          (n) => isObject(models[n]) && (models[n] as { model?: unknown }).model === model,
        );
        ctx.report("unknown-model", ["nodes", name, "model"], {
          message: `model \`${model}\` is not declared in \`models\``,
          hint: declaredAs
            ? {
                hint: `\`${model}\` is declared as \`${declaredAs}\`: write \`model: ${declaredAs}\``,
                replacement: declaredAs,
              }
            : PROVIDER_MODEL.test(model)
              ? `models are declared by name under \`models\`: \`models: { ${nameFor(model)}: { model: "${model}" } }\`, then \`model: ${nameFor(model)}\``
              : (suggest(model, names) ??
                (names.length
                  ? `declared models: ${listNames(names)}`
                  : 'declare it: `models: { NAME: { model: "provider:name" } }`')),
        });
      } else if (model === undefined && !Object.hasOwn(models, "default")) {
        ctx.report("unknown-model", ["nodes", name], {
          message: `node \`${name}\` uses the default model, but \`models\` has no \`default\``,
          hint: 'add `models: { default: { model: "provider:name" } }`, or set `model:` on the node',
          at: "key",
        });
      }
    }
  },
};
