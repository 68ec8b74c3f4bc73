import { isObject } from "../../spec/data.js";
import type { Rule } from "../rule.js";

/**
 * A model's `provider:name` is written out, never a template: it goes to the provider as
 * written, so `${{ env.MODEL }}` would be sent as text (and a model picked by the environment is
 * one nobody reviewed). A run chooses among reviewed models with `allow`.
 */
export const modelTemplate: Rule = {
  name: "model-template",
  check(ctx) {
    const models = isObject(ctx.spec.models) ? ctx.spec.models : {};
    for (const [name, decl] of Object.entries(models)) {
      const model = isObject(decl) ? decl.model : undefined;
      if (typeof model !== "string" || !model.includes("${{")) continue;
      ctx.report("model-template", ["models", name, "model"], {
        message: `model \`${name}\`: \`model\` is a template, but a model's \`provider:name\` is sent as written`,
        hint: "write the `provider:name` out; to let a run choose, declare each model under `models` and list them in this model's `allow`",
      });
    }
  },
};
