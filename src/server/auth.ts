/**
 * Who is asking: a tenant per request, from an API-key file (`--api-keys`: key → tenant id, the
 * SDK sends `x-api-key`) or from LangGraph's own `Auth` handler (`@langchain/langgraph-sdk/auth`,
 * a module path as in a langgraph.json `auth.path`, so an existing handler works unchanged). No
 * header skips it (the LangGraph server skips auth for `x-auth-scheme: langsmith`; this one does
 * not know that header).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { access, readFile } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import { importModule } from "../modules/load.js";
import { ApiError } from "./api-error.js";
import type { AuthFilters } from "./auth-filters.js";

export interface Caller {
  tenant: string;
  /** The user as the Auth handler returned it (for its `on` handlers). */
  user: Record<string, unknown>;
  permissions: string[];
}

export interface Authenticator {
  authenticate(request: Request): Promise<Caller>;
  /**
   * Asks the handler's `on` callbacks whether this action is allowed (false or a throw refuses
   * it), and answers the metadata filters it returned. The callback may change `value` (as
   * LangGraph's handlers add `metadata.owner`): the caller reads it back.
   */
  authorize(
    caller: Caller,
    resource: string,
    action: string,
    value: unknown,
  ): Promise<AuthFilters | undefined>;
}

const unauthorized = (message: string, hint: string) =>
  new ApiError(401, "unauthorized", message, { hint });

const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();

/** API keys from a JSON file: `{ "key": "tenant-id", … }`; keys are compared in constant time. */
export async function apiKeyAuth(file: string): Promise<Authenticator> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new Error(
      `--api-keys ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); give the path of a JSON file from API key to tenant id`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new Error(
      `--api-keys ${file}: not valid JSON (${(e as Error).message}); write it as {"<key of 16+ characters>": "tenant-a"}`,
    );
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw new Error(
      `--api-keys ${file}: must be a JSON object from API key to tenant id, as {"<key of 16+ characters>": "tenant-a"}`,
    );
  const keys = Object.entries(parsed as Record<string, unknown>).map(([key, tenant]) => {
    if (typeof tenant !== "string" || !tenant)
      throw new Error(
        `--api-keys ${file}: the tenant of a key must be a non-empty string, as {"<key>": "tenant-a"}`,
      );
    if (key.length < 16)
      throw new Error(
        `--api-keys ${file}: a key must be at least 16 characters (one is ${key.length}); make one with \`openssl rand -hex 24\``,
      );
    return { digest: digest(key), tenant };
  });
  if (!keys.length)
    throw new Error(
      `--api-keys ${file}: no keys; add one, as {"<key of 16+ characters>": "tenant-a"}`,
    );
  return {
    async authenticate(request) {
      const given = request.headers.get("x-api-key");
      if (!given)
        throw unauthorized(
          "no API key",
          "send the key in the `x-api-key` header (the SDK's `apiKey` option)",
        );
      const d = digest(given);
      // Every key compared, found or not: the time taken says nothing of which matched.
      let tenant: string | undefined;
      for (const k of keys) if (timingSafeEqual(k.digest, d)) tenant ??= k.tenant;
      if (tenant === undefined)
        throw unauthorized("the API key is not valid", "check the key, or ask for one");
      return { tenant, user: { identity: tenant }, permissions: [] };
    },
    async authorize() {
      return undefined;
    },
  };
}

interface AuthHandlers {
  authenticate?: (request: Request) => unknown;
  callbacks?: Record<string, (arg: Record<string, unknown>) => unknown>;
}

/** The HTTP error an Auth handler threw (its HTTPException), or a 401 for anything else. */
function handlerError(e: unknown, fallback: 401 | 403): ApiError {
  const status = (e as { status?: unknown })?.status;
  const message = (e as Error)?.message || "not allowed";
  if (typeof status === "number" && [400, 401, 403, 404, 409, 422].includes(status))
    return new ApiError(status as 401, status === 401 ? "unauthorized" : "forbidden", message);
  return new ApiError(fallback, fallback === 401 ? "unauthorized" : "forbidden", message);
}

/**
 * An `Auth` instance exported from a module: `path/to/auth.ts:auth` (the export's name after the
 * last colon, as langgraph.json writes it). TypeScript modules load through tsx.
 */
export async function handlerAuth(spec: string, cwd: string): Promise<Authenticator> {
  const m = /^(.*?)(?::([A-Za-z_$][\w$]*))?$/.exec(spec)!;
  const file = isAbsolute(m[1]!) ? m[1]! : resolve(cwd, m[1]!);
  const name = m[2] ?? "auth";
  try {
    await access(file);
  } catch {
    throw new Error(
      `--auth ${spec}: no such file ${file}; give path/to/auth.ts:exportName, as langgraph.json's auth.path`,
    );
  }
  const mod = await importModule(file);
  const auth =
    (mod as Record<string, unknown>)[name] ??
    (mod as { default?: Record<string, unknown> }).default?.[name];
  const handlers = (auth as Record<string, unknown> | undefined)?.["~handlerCache"] as
    | AuthHandlers
    | undefined;
  if (!handlers?.authenticate)
    throw new Error(
      `--auth ${spec}: no Auth export \`${name}\` with an authenticate handler; export \`new Auth().authenticate(…)\` from @langchain/langgraph-sdk/auth under that name`,
    );
  const authenticate = handlers.authenticate;
  return {
    async authenticate(request) {
      let got: unknown;
      try {
        got = await authenticate(request);
      } catch (e) {
        throw handlerError(e, 401);
      }
      const user = (typeof got === "string" ? { identity: got } : got) as Record<
        string,
        unknown
      > | null;
      const identity = user?.identity;
      if (typeof identity !== "string" || !identity)
        throw unauthorized(
          "the Auth handler returned no identity",
          "return { identity } from authenticate",
        );
      const permissions = Array.isArray(user?.permissions) ? (user.permissions as string[]) : [];
      return { tenant: identity, user: { ...user, identity }, permissions };
    },
    async authorize(caller, resource, action, value) {
      const cb = handlers.callbacks;
      const handler =
        cb?.[`${resource}:${action}`] ?? cb?.[resource] ?? cb?.[`*:${action}`] ?? cb?.["*"];
      if (!handler) return undefined;
      let verdict: unknown;
      try {
        verdict = await handler({
          event: `${resource}:${action}`,
          resource,
          action,
          value,
          user: caller.user,
          permissions: caller.permissions,
        });
      } catch (e) {
        throw handlerError(e, 403);
      }
      if (verdict === false)
        throw new ApiError(403, "forbidden", `the Auth handler refused ${resource}:${action}`);
      if (verdict === undefined || verdict === null || verdict === true) return undefined;
      if (typeof verdict !== "object" || Array.isArray(verdict))
        throw new ApiError(
          500,
          "auth-handler-invalid",
          `the Auth handler's ${resource}:${action} callback returned ${Array.isArray(verdict) ? "an array" : typeof verdict}`,
          { hint: "return a filter object, a boolean, or nothing" },
        );
      return verdict as AuthFilters;
    },
  };
}
