import { suggest } from "../../diagnostics/suggest.js";
import { isObject } from "../../spec/data.js";
import type { Rule } from "../rule.js";

/**
 * The providers `models.*.model` may name: LangChain's `initChatModel` providers (its
 * MODEL_PROVIDER_CONFIG, copied so that validate never loads LangChain; a test holds the two
 * equal) and graphspec's offline `scripted`.
 */
export const MODEL_PROVIDERS: readonly string[] = [
  "scripted",
  "openai",
  "anthropic",
  "azure_openai",
  "langsmith",
  "cohere",
  "google",
  "google-vertexai",
  "google-vertexai-web",
  "google-genai",
  "ollama",
  "mistralai",
  "mistral",
  "groq",
  "bedrock",
  "aws",
  "deepseek",
  "xai",
  "cerebras",
  "fireworks",
  "together",
  "perplexity",
];

/** A model's `provider:name` names a provider LangChain (or graphspec) knows. */
export const unknownProvider: Rule = {
  name: "unknown-provider",
  check(ctx) {
    const models = isObject(ctx.spec.models) ? ctx.spec.models : {};
    for (const [name, decl] of Object.entries(models)) {
      const model = isObject(decl) ? decl.model : undefined;
      if (typeof model !== "string" || model.includes("${{")) continue;
      const colon = model.indexOf(":");
      if (colon <= 0) continue; // the schema reports a string that is not `provider:name`
      const provider = model.slice(0, colon);
      if (MODEL_PROVIDERS.includes(provider)) continue;
      const near = suggest(provider, MODEL_PROVIDERS);
      ctx.report("unknown-provider", ["models", name, "model"], {
        message: `model \`${name}\` names the provider \`${provider}\`, which LangChain does not know`,
        hint: `${near?.hint ?? ""} providers: ${MODEL_PROVIDERS.join(", ")}`.trim(),
        // The whole value is the finding's range: the fix keeps the model's name.
        replacement: near && `${near.replacement}${model.slice(colon)}`,
      });
    }
  },
};
