/**
 * A chat model from its declaration in `models:`. `provider:name` goes through LangChain's
 * `initChatModel` (which imports the provider's package and constructs its model), with string
 * options evaluated as templates over `env` and graphspec's option names mapped to LangChain's;
 * `scripted:NAME` answers from the compile's scripts.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { initChatModel, MODEL_PROVIDER_CONFIG } from "langchain/chat_models/universal";
import { didYouMean } from "../../diagnostics/suggest.js";
import { ExprEnvironment, ExprError, isTemplate } from "../../expr/index.js";
import { isObject } from "../../spec/data.js";
import { scrubber, secretValues } from "../../spec/secrets.js";
import type { Model } from "../../spec/spec-types.generated.js";
import { DEFAULT_MODEL_TIMEOUT_MS, withCallDeadline } from "./call-deadline.js";
import { gatewayCostFetch } from "./gateway-cost.js";
import { ModelConfigError } from "./model-config-error.js";
import { modelSecrets } from "./model-secrets.js";
import type { ProviderRecording } from "./recording.js";
import { NOT_YET_RUN, readsContext } from "./run-fields.js";
import { ScriptQueues, type Scripts } from "./script.js";
import { scriptKey } from "./script-key.js";
import { ScriptedChatModel } from "./scripted.js";

export interface ModelResolveOptions {
  /** What `${{ env.NAME }}` reads. Default: process.env. */
  env?: Record<string, string | undefined>;
  /**
   * Answers of `scripted:NAME` models. Plain Scripts give each resolved model a queue of its own;
   * pass one ScriptQueues for all the models of a compile so models naming one script share it.
   */
  scripts?: Scripts | ScriptQueues;
  /**
   * The run's context, for options that read `${{ context.KEY }}` (run-fields.ts). Without it
   * (the compile's own set-up, before any run) such options hold a stand-in value.
   */
  context?: Record<string, unknown>;
  /** The spec's expression environment, whose `context` type the templates are checked against. */
  expr?: ExprEnvironment;
  /** Records the model's provider exchanges, or answers from them offline (recording.ts). */
  recording?: ProviderRecording;
  /** How long one call may take when the model sets no `timeout_ms` (call-deadline.ts). */
  modelTimeoutMs?: number;
}

const PROVIDERS = MODEL_PROVIDER_CONFIG as Record<string, { package: string; className: string }>;

/** graphspec's option names → LangChain's constructor fields. Others pass through as written. */
const RENAMED: Record<string, string> = {
  max_tokens: "maxTokens",
  api_key: "apiKey",
  timeout_ms: "timeout",
  max_retries: "maxRetries",
};

/** Providers built on the OpenAI client, whose endpoint is `configuration.baseURL`. */
const OPENAI_COMPATIBLE = new Set([
  "openai",
  "azure_openai",
  "deepseek",
  "xai",
  "together",
  "fireworks",
]);

/** Where `base_url` goes for the other providers; `baseUrl` unless named here. */
const BASE_URL_FIELD: Record<string, string> = { anthropic: "anthropicApiUrl" };

/** The declaration with string values at any depth evaluated as templates over `env` and `context`. */
function evaluateOptions(
  name: string,
  decl: Model,
  env: Record<string, string | undefined>,
  options: ModelResolveOptions,
): Record<string, unknown> {
  const expr = options.expr ?? ExprEnvironment.for({});
  const scope = expr.modelsScope();
  const vars = {
    env: Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)),
    context: options.context ?? {},
  };
  const walk = (value: unknown, path: string): unknown => {
    if (typeof value === "string") {
      if (!isTemplate(value)) return value;
      const perRun = readsContext(value);
      if (perRun && !options.context) return NOT_YET_RUN;
      try {
        return expr.compileTemplate(value, scope).evaluate(vars);
      } catch (e) {
        const reason = (e as Error).message;
        const missing = /^no such key: (\S+)$/.exec(reason)?.[1];
        // A replay sends nothing: an option read from an unset variable (the key CI does not
        // have) is left out, the client's default standing in (recording.ts).
        if (missing && !perRun && options.recording?.mode === "replay") return undefined;
        if (missing && perRun && Object.hasOwn(expr.context.fields, missing)) {
          throw new ModelConfigError(
            `model \`${name}\`: \`${path}\` could not be computed: the run's context has no \`${missing}\``,
            { model: name, field: path, hint: `pass \`${missing}\` in the run's context` },
          );
        }
        throw new ModelConfigError(
          missing
            ? `model \`${name}\`: \`${path}\` could not be computed: the environment variable \`${missing}\` is not set`
            : `model \`${name}\`: \`${path}\` could not be computed: ${reason}`,
          {
            model: name,
            field: path,
            hint: missing
              ? `set \`${missing}\`, or pass it in compile()'s \`env\` option`
              : e instanceof ExprError
                ? e.hint
                : undefined,
          },
        );
      }
    }
    if (Array.isArray(value)) return value.map((v, i) => walk(v, `${path}[${i}]`));
    if (isObject(value)) {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, walk(v, path ? `${path}.${k}` : k)]),
      );
    }
    return value;
  };
  return walk(decl, "") as Record<string, unknown>;
}

/** The provider's constructor fields for the evaluated options. */
function providerFields(
  name: string,
  provider: string,
  options: Record<string, unknown>,
  recording: ProviderRecording | undefined,
): Record<string, unknown> {
  // `allow` (the models a run may choose) and `price` (for showing a run's cost) are graphspec's,
  // not the provider's.
  const {
    model: _model,
    allow: _allow,
    price: _price,
    base_url,
    headers,
    metadata,
    ...rest
  } = options;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) out[RENAMED[k] ?? k] = v;
  if (OPENAI_COMPATIBLE.has(provider)) {
    const configuration = isObject(out.configuration) ? out.configuration : {};
    const defaultHeaders = isObject(configuration.defaultHeaders)
      ? configuration.defaultHeaders
      : {};
    out.configuration = {
      ...configuration,
      ...(base_url !== undefined ? { baseURL: base_url } : {}),
      ...(headers !== undefined ? { defaultHeaders: { ...defaultHeaders, ...headers } } : {}),
      // A gateway's cost header becomes the answer's `usage.cost` (gateway-cost.ts).
      fetch: gatewayCostFetch(recording?.fetch(name)),
    };
    // The request body's `metadata`: not LangChain's own `metadata` option, which only labels
    // the model's runs (and would show in their events).
    if (metadata !== undefined) {
      const kwargs = isObject(out.modelKwargs) ? out.modelKwargs : {};
      out.modelKwargs = { ...kwargs, metadata };
    }
  } else {
    if (base_url !== undefined) out[BASE_URL_FIELD[provider] ?? "baseUrl"] = base_url;
    if (headers !== undefined) {
      const clientOptions = isObject(out.clientOptions) ? out.clientOptions : {};
      out.clientOptions = { ...clientOptions, defaultHeaders: headers };
    }
    if (recording) {
      // Anthropic's client (and the others' on the same SDK shape) takes its fetch here.
      const clientOptions = isObject(out.clientOptions) ? out.clientOptions : {};
      out.clientOptions = { ...clientOptions, fetch: recording.fetch(name) };
    }
    if (metadata !== undefined) {
      // LangChain's own `metadata` only labels runs: sending it needs the provider's own field.
      throw new ModelConfigError(
        `model \`${name}\`: \`metadata\` is sent only to OpenAI-compatible providers, not \`${provider}\``,
        {
          model: name,
          field: "metadata",
          hint: "pass the provider's own request field under its own name",
        },
      );
    }
  }
  return out;
}

function scriptedModel(
  name: string,
  decl: Model,
  script: string,
  scripts: Scripts | ScriptQueues | undefined,
): BaseChatModel {
  const queues = scripts instanceof ScriptQueues || !scripts ? scripts : new ScriptQueues(scripts);
  // `NAME`, else the entry's name, else the model string: the one rule (script-key.ts).
  const key = (queues && scriptKey(name, decl.model, (k) => queues.given(k))) ?? script;
  const queue = queues?.get(key);
  const given = queues?.names() ?? [];
  const missing = {
    message: `model \`${name}\` (\`${decl.model}\`) has no script: the scripted provider answers only from a script supplied by the test or fixture that runs the graph`,
    hint: given.length
      ? `the scripts given are ${given.map((n) => `\`${n}\``).join(", ")}: add \`${script}\``
      : `pass \`scripts: { "${script}": [...] }\` to compile() (CompileOptions.scripts), or a \`scripts:\` entry in the test fixture`,
  };
  if (!queue)
    throw new ModelConfigError(missing.message, { model: name, field: "model", ...missing });
  // Scripts that let any name through (an executor's, a fixture's): the call fails, saying so.
  if (!queues?.given(key)) {
    return ScriptedChatModel.refusing(queue, {
      message: missing.message,
      hint: given.length
        ? missing.hint
        : `give it one by its script's name, \`scripts: { "${script}": [...] }\`: the executor's \`scripts\`, \`--scripts\`, or a test fixture's \`scripts:\``,
    }) as unknown as BaseChatModel;
  }
  return ScriptedChatModel.on(queue) as unknown as BaseChatModel;
}

/** The chat model declared as `name`. Throws ModelConfigError. */
export async function resolveModel(
  name: string,
  decl: Model,
  options: ModelResolveOptions = {},
): Promise<BaseChatModel> {
  if (isTemplate(decl.model)) {
    // validate reports it (`model-template`); a compile without validate must not send it as text.
    throw new ModelConfigError(
      `model \`${name}\`: \`model\` is a template, but a model's \`provider:name\` is sent as written`,
      {
        model: name,
        field: "model",
        hint: "write the `provider:name` out; to let a run choose, list models in `allow`",
      },
    );
  }
  const colon = decl.model.indexOf(":");
  const provider = decl.model.slice(0, Math.max(colon, 0));
  const modelName = decl.model.slice(colon + 1);
  if (colon <= 0 || !modelName) {
    throw new ModelConfigError(
      `model \`${name}\`: \`${decl.model}\` is not of the form \`provider:name\``,
      { model: name, field: "model", hint: "write it as, e.g., `openai:gpt-4o-mini`" },
    );
  }
  if (provider === "scripted") return scriptedModel(name, decl, modelName, options.scripts);
  const config = PROVIDERS[provider];
  if (!config) {
    const known = ["scripted", ...Object.keys(PROVIDERS)];
    const suggestion = didYouMean(provider, known);
    throw new ModelConfigError(
      `model \`${name}\` (\`${decl.model}\`) names the provider \`${provider}\`, which LangChain does not know`,
      {
        model: name,
        field: "model",
        hint: `${suggestion ? `${suggestion} ` : ""}use one of: ${known.join(", ")}`,
      },
    );
  }
  const env = options.env ?? process.env;
  const evaluated = evaluateOptions(name, decl, env, options);
  const fields = providerFields(name, provider, evaluated, options.recording);
  // The key of a replayed model is never sent: without one, a stand-in lets the client be built.
  if (options.recording?.mode === "replay" && fields.apiKey === undefined)
    fields.apiKey = "replayed-without-a-key";
  try {
    const configurable = await initChatModel(modelName, { modelProvider: provider, ...fields });
    // initChatModel constructs the provider's model at once and wraps it to be reconfigurable at
    // run time, which we do not use: the model itself binds tools and structured output natively.
    const model = await configurable._getModelInstance();
    const ms =
      typeof evaluated.timeout_ms === "number"
        ? evaluated.timeout_ms
        : (options.modelTimeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS);
    return withCallDeadline(model, name, decl.model, ms);
  } catch (e) {
    const secrets = [...modelSecrets(decl, env), ...secretValues(evaluated)];
    const message = scrubber(secrets).text(String((e as Error)?.message ?? e).split("\n")[0]!);
    const missing = /^Unable to import (\S+?)\.? Please install/.exec(message)?.[1];
    if (missing || /Cannot find (package|module)/.test(message)) {
      const pkg = missing ?? config.package;
      throw new ModelConfigError(
        `model \`${name}\` (\`${decl.model}\`) needs the package \`${pkg}\`, which is not installed`,
        { model: name, field: "model", hint: `run \`npm install ${pkg}\`` },
      );
    }
    throw new ModelConfigError(
      `model \`${name}\` (\`${decl.model}\`) could not be set up: ${message}`,
      { model: name },
    );
  }
}
