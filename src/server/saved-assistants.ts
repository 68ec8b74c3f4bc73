/**
 * A saved assistant's configuration: checked against its graph's spec as a run's options are
 * (the model from an `allow` list, the recursion limit, breakpoints that name nodes, a tool
 * allowlist, context values of their declared types) — 422 naming the field — and bounded; its
 * context's secrets (secret-looking keys, keys the spec declares `secret: true`) never kept in
 * plaintext, shown as `***` and masked by value everywhere else in it; and the configuration
 * merged under a run's own, as the LangGraph server merges an assistant's.
 */
import { refuseRunChoices } from "../compile/run-choices.js";
import { fieldJsonSchema, valueCheck } from "../compile/value-check.js";
import { isSecretKey, MASK, scrubber, secretValues } from "../spec/secrets.js";
import { ApiError } from "./api-error.js";
import type { AssistantBody, KeptSecrets, StoredAssistant } from "./assistant-store.js";
import type { GraphEntry } from "./graph-catalog.js";
import type { RunCreate } from "./request-body.js";
import { runChoices } from "./run-choices.js";
import { runLimits } from "./run-limits.js";
import { seal, unseal } from "./sealed-context.js";
import type { ServerParts } from "./server-parts.js";
import { refuseStandIn } from "./stand-in-choice.js";

/** What a create or an update gives (absent: the latest version's, for an update). */
export interface AssistantFields {
  config?: Record<string, unknown> | null | undefined;
  context?: Record<string, unknown> | null | undefined;
  metadata?: Record<string, unknown> | null | undefined;
  name?: string | null | undefined;
  description?: string | null | undefined;
}

/** The run-option fields a refusal names, as an assistant's config holds them. */
const CONFIG_FIELD: Record<string, string> = {
  model: "config.configurable.model",
  recursionLimit: "config.recursion_limit",
  interruptBefore: "config.interrupt_before",
  interruptAfter: "config.interrupt_after",
};

/** The config's run choices, checked as a run's are; its field names, the config's own. */
async function checkConfig(
  p: ServerParts,
  graph: GraphEntry,
  config: Record<string, unknown>,
): Promise<void> {
  // Its deadline and token budget within the server's bounds, as a run's: refused at save, not
  // at each of its runs.
  runLimits({ assistant_id: graph.name, config } as RunCreate, p.runLimits);
  let choices: ReturnType<typeof runChoices>;
  try {
    choices = runChoices({
      assistant_id: graph.name,
      config: config as RunCreate["config"],
      interrupt_before: config.interrupt_before,
      interrupt_after: config.interrupt_after,
    } as RunCreate);
  } catch (e) {
    const field = e instanceof ApiError ? e.extra.field : undefined;
    if (e instanceof ApiError && field?.startsWith("interrupt_"))
      throw new ApiError(422, e.code, e.message.replace(field, `config.${field}`), {
        ...e.extra,
        field: `config.${field}`,
      });
    throw e;
  }
  // A stand-in only `graphspec dev` offers, as for a run.
  await refuseStandIn(p.standIns, graph.path, choices.standIn);
  const refused = refuseRunChoices(graph.spec, choices);
  if (!refused) return;
  const field = CONFIG_FIELD[refused.field ?? ""] ?? "config";
  const message = refused.message
    .replace(/^the run('s)? /, "the assistant$1 ")
    .replace(`\`${refused.field}\``, `\`${field}\``);
  throw new ApiError(422, refused.code, message, {
    field,
    ...(refused.hint ? { hint: refused.hint } : {}),
  });
}

/** Declared context keys with values of their declared types (undeclared keys pass, as in runs). */
function checkContext(graph: GraphEntry, context: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(context)) {
    const field = graph.spec.context?.[key];
    if (!field || value === MASK) continue;
    const problem = valueCheck(fieldJsonSchema(field))(value, `context.${key}`)[0];
    if (problem)
      throw new ApiError(422, "invalid-context", `the assistant's context: ${problem.message}`, {
        field: `context.${key}`,
        hint: problem.hint ?? `give \`${key}\` a value that matches its declaration in \`context\``,
      });
  }
}

/** Context keys the spec declares `secret: true`. */
const secretKeysOf = (graph: GraphEntry): Set<string> =>
  new Set(
    Object.entries(graph.spec.context ?? {})
      .filter(([, f]) => f.secret === true)
      .map(([k]) => k),
  );

/** Binds an assistant's sealed secrets to it: copied onto another assistant, they do not open. */
const boundTo = (tenant: string, id: string) => `assistant:${tenant}/${id}`;

/**
 * A version's body and its kept secrets, from what a create or update gives on top of `latest`
 * (an update's absent fields, and its context's `***` under a secret key, keep the latest's).
 */
export async function assistantVersion(
  p: ServerParts,
  where: { tenant: string; id: string },
  graph: GraphEntry,
  given: AssistantFields,
  latest?: { body: AssistantBody; secrets: Record<string, unknown> },
): Promise<{ body: AssistantBody; secrets: KeptSecrets | undefined }> {
  const config = given.config ?? latest?.body.config ?? {};
  // Metadata is merged into the latest's, as on LangGraph's server.
  const metadata = { ...(latest?.body.metadata ?? {}), ...(given.metadata ?? {}) };
  await checkConfig(p, graph, config);
  const keys = secretKeysOf(graph);
  const isSecret = (k: string, v: unknown) =>
    keys.has(k) || isSecretKey(k) || secretValues(v).length > 0;
  let context: Record<string, unknown>;
  let secrets: Record<string, unknown>;
  if (given.context === undefined || given.context === null) {
    context = latest?.body.context ?? {};
    secrets = latest?.secrets ?? {};
  } else {
    checkContext(graph, given.context);
    context = {};
    secrets = {};
    for (const [k, v] of Object.entries(given.context)) {
      if (!isSecret(k, v)) context[k] = v;
      else if (v !== MASK) secrets[k] = v;
      else if (latest && k in latest.secrets) secrets[k] = latest.secrets[k];
      else continue;
      if (k in secrets) context[k] = MASK;
    }
  }
  // The secrets' values masked wherever else they were written (a name, the metadata, the config).
  const scrub = scrubber(secretValues(secrets, new Set(Object.keys(secrets))));
  const body = scrub({
    graph_id: graph.name,
    // "Untitled" when none is given, as on LangGraph's server.
    name: given.name ?? latest?.body.name ?? "Untitled",
    description:
      given.description !== undefined ? given.description : (latest?.body.description ?? null),
    config,
    context,
    metadata,
  });
  const bytes = Buffer.byteLength(JSON.stringify({ ...body, secrets }));
  if (bytes > p.assistantCaps.maxBytes)
    throw new ApiError(
      413,
      "assistant-too-large",
      `the assistant's config, context, metadata, name and description are ${bytes} bytes as JSON, more than the ${p.assistantCaps.maxBytes} one may hold`,
      {
        hint: `keep large values out of the assistant (pass them with the run), or start the server with a larger --max-assistant-bytes (startServer({ maxAssistantBytes }), now ${p.assistantCaps.maxBytes})`,
      },
    );
  return { body, secrets: keep(p, where, secrets) };
}

/** Secrets as the store keeps them: sealed with the records key, or in this process's memory. */
function keep(
  p: ServerParts,
  where: { tenant: string; id: string },
  secrets: Record<string, unknown>,
): KeptSecrets | undefined {
  const names = Object.keys(secrets);
  if (!names.length) return undefined;
  if (p.recordsKey) return { sealed: seal(p.recordsKey, secrets, boundTo(where.tenant, where.id)) };
  if (!p.assistants.durable) return { held: secrets };
  throw new ApiError(
    422,
    "secret-not-kept",
    `the assistant's context holds secrets (\`${names.join("`, `")}\`), and this server has no records key to seal them with: they would be stored in plaintext`,
    {
      field: `context.${names[0]}`,
      hint: "start the server with GRAPHSPEC_RECORDS_KEY set (`openssl rand -hex 32`; docs/security.md), or pass secrets in each run's context rather than the assistant's",
    },
  );
}

/** The secrets a version keeps, opened. */
export function openSecrets(
  p: ServerParts,
  where: { tenant: string; id: string },
  kept: KeptSecrets | undefined,
): Record<string, unknown> {
  if (!kept) return {};
  if ("held" in kept) return kept.held;
  const opened = unseal(p.recordsKey, kept.sealed, boundTo(where.tenant, where.id));
  if ("value" in opened) return opened.value as Record<string, unknown>;
  throw new ApiError(
    409,
    "assistant-secrets-unreadable",
    `assistant \`${where.id}\`: ${opened.problem}`,
    {
      hint: "start the server with the records key the assistant was saved under, or update the assistant's context",
    },
  );
}

/** A saved assistant as the API shows it (LangGraph's `Assistant`). */
export const savedAssistantView = (a: StoredAssistant) => ({
  assistant_id: a.assistant_id,
  ...a.body,
  version: a.version,
  created_at: a.first_created_at,
  updated_at: a.updated_at,
});

/** One version as `assistants.getVersions` shows it (LangGraph's `AssistantVersion`). */
export const versionView = (
  id: string,
  v: { version: number; created_at: string; body: AssistantBody },
) => ({ assistant_id: id, version: v.version, ...v.body, created_at: v.created_at });

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A run's body with the assistant's configuration under it, as LangGraph's server merges them:
 * the run's config keys over the assistant's, `configurable` merged key by key, the context key
 * by key; the assistant's breakpoints (`config.interrupt_before` / `_after`) where the run gives
 * none.
 */
export function underAssistant(
  a: StoredAssistant,
  secrets: Record<string, unknown>,
  run: RunCreate,
): RunCreate {
  const saved = a.body.config;
  const own: Record<string, unknown> = run.config ?? {};
  const configurable = {
    ...(isRecord(saved.configurable) ? saved.configurable : {}),
    ...(isRecord(own.configurable) ? own.configurable : {}),
  };
  const merged: Record<string, unknown> = { ...saved, ...own, configurable };
  const { interrupt_before, interrupt_after, ...config } = merged;
  const publicContext = Object.fromEntries(
    Object.entries(a.body.context).filter(([k]) => !(k in secrets)),
  );
  const context = { ...publicContext, ...secrets, ...(run.context ?? {}) };
  return {
    ...run,
    config,
    ...(Object.keys(context).length ? { context } : {}),
    interrupt_before: run.interrupt_before ?? interrupt_before,
    interrupt_after: run.interrupt_after ?? interrupt_after,
  };
}
