/**
 * Chat models by their declaration in `models:`: `provider:name` through LangChain's
 * `initChatModel` (which imports the provider's package), with graphspec's option names mapped to
 * LangChain's, string options evaluated as templates over `env`; `scripted:NAME` answers from
 * the compile's scripts.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { initChatModel, MODEL_PROVIDER_CONFIG } from "langchain/chat_models/universal";
import { ExprEnvironment, isTemplate } from "../../expr/index.js";
import { isObject } from "../../spec/data.js";
import type { Model } from "../../spec/spec-types.js";
import { ScriptedChatModel, type Scripts } from "./scripted.js";

export type { ScriptedTurn, Scripts } from "./scripted.js";
export { ScriptedChatModel } from "./scripted.js";

/** A model declaration that cannot become a model; the message names the model and what to do. */
export class ModelConfigError extends Error {
  override readonly name = "ModelConfigError";
  constructor(
    message: string,
    readonly model: string,
    readonly hint?: string,
  ) {
    super(hint ? `${message} (${hint})` : message);
  }
}

export interface ModelResolveOptions {
  env?: Record<string, string | undefined>;
  scripts?: Scripts;
}

/** graphspec's option names → LangChain's constructor fields. Others pass through as written. */
const RENAMED: Record<string, string> = {
  max_tokens: "maxTokens",
  api_key: "apiKey",
  timeout_ms: "timeout",
  max_retries: "maxRetries",
};

/** String values at any depth evaluated as templates over `env`. */
function evaluateOptions(
  name: string,
  decl: Model,
  env: Record<string, string | undefined>,
): Record<string, unknown> {
  const expr = ExprEnvironment.for({});
  const scope = expr.modelsScope();
  const vars = { env: Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) };
  const walk = (value: unknown, key: string): unknown => {
    if (typeof value === "string") {
      if (!isTemplate(value)) return value;
      try {
        return expr.compileTemplate(value, scope).evaluate(vars);
      } catch (e) {
        const reason = (e as Error).message;
        const missing = /no such key: (\w+)/.exec(reason)?.[1];
        throw new ModelConfigError(
          `model \`${name}\`: \`${key}\` could not be computed: ${reason}`,
          name,
          missing ? `set the environment variable ${missing}` : undefined,
        );
      }
    }
    if (Array.isArray(value)) return value.map((v) => walk(v, key));
    if (isObject(value))
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, `${key}.${k}`)]));
    return value;
  };
  return walk(decl, "") as Record<string, unknown>;
}

const OPENAI_COMPATIBLE = new Set([
  "openai",
  "azure_openai",
  "deepseek",
  "xai",
  "together",
  "fireworks",
]);

function providerFields(
  provider: string,
  options: Record<string, unknown>,
): Record<string, unknown> {
  const { model: _model, base_url, ...rest } = options;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) out[RENAMED[k] ?? k] = v;
  if (base_url !== undefined) {
    if (OPENAI_COMPATIBLE.has(provider)) {
      const configuration = isObject(out.configuration) ? out.configuration : {};
      out.configuration = { ...configuration, baseURL: base_url };
    } else out.baseUrl = base_url;
  }
  return out;
}

/** The chat model declared as `name`. Throws ModelConfigError. */
export async function resolveModel(
  name: string,
  decl: Model,
  options: ModelResolveOptions = {},
): Promise<BaseChatModel> {
  const colon = decl.model.indexOf(":");
  const provider = decl.model.slice(0, colon);
  const modelName = decl.model.slice(colon + 1);
  if (provider === "scripted") {
    const script = options.scripts?.[modelName];
    if (!script) {
      throw new ModelConfigError(
        `model \`${name}\` (\`${decl.model}\`) has no script: the scripted provider answers only from a script supplied by the test or fixture that runs the graph`,
        name,
        `pass \`scripts: { "${modelName}": [...] }\` to compile(), or a \`scripts:\` entry in the test fixture`,
      );
    }
    return ScriptedChatModel.create(modelName, script) as unknown as BaseChatModel;
  }
  const config = (MODEL_PROVIDER_CONFIG as Record<string, { package: string }>)[provider];
  if (!config) {
    throw new ModelConfigError(
      `model \`${name}\` names the provider \`${provider}\`, which LangChain does not know`,
      name,
      `use one of: scripted, ${Object.keys(MODEL_PROVIDER_CONFIG).join(", ")}`,
    );
  }
  const fields = providerFields(provider, evaluateOptions(name, decl, options.env ?? process.env));
  try {
    return (await initChatModel(modelName, {
      modelProvider: provider,
      ...fields,
    })) as unknown as BaseChatModel;
  } catch (e) {
    const message = (e as Error)?.message ?? String(e);
    if (/Unable to import|Cannot find (package|module)/.test(message)) {
      throw new ModelConfigError(
        `model \`${name}\` (\`${decl.model}\`) needs the package \`${config.package}\`, which is not installed`,
        name,
        `run \`npm install ${config.package}\``,
      );
    }
    throw new ModelConfigError(
      `model \`${name}\` (\`${decl.model}\`) could not be set up: ${message.split("\n")[0]}`,
      name,
    );
  }
}
