/**
 * Saved assistants (`assistants.create`): a graph with a configuration — model, recursion limit,
 * breakpoints, tool allowlist, context defaults — kept per tenant, each change a new version, one
 * version the latest. In this process (`memoryAssistants`) beside the memory records; in the
 * records' database otherwise (sql-assistant-store.ts). The graphs' own assistants, one per spec,
 * are not kept here: they come from the specs (assistant-routes.ts).
 */

/** Each tenant's saved assistants, and the bytes of one's configuration (`startServer`'s options). */
export interface AssistantCaps {
  /** Saved assistants one tenant may keep (`maxAssistantsPerTenant`). */
  maxCount: number;
  /** Bytes of one version's config, context, metadata, name and description, as JSON. */
  maxBytes: number;
  /** Versions kept of each assistant: older ones go as new ones come. */
  keepVersions: number;
}

export const DEFAULT_ASSISTANT_CAPS: AssistantCaps = {
  maxCount: 100,
  maxBytes: 64 * 1024,
  keepVersions: 50,
};

/** What one version of an assistant holds, as the API shows it (its context's secrets masked). */
export interface AssistantBody {
  graph_id: string;
  name: string;
  description: string | null;
  config: Record<string, unknown>;
  context: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

/**
 * The context's secret entries of a version: sealed with the records key (sealed-context.ts), or
 * — only in this process's memory store, which writes nothing to disk — held as they are.
 */
export type KeptSecrets = { sealed: string } | { held: Record<string, unknown> };

export interface AssistantVersion {
  version: number;
  created_at: string;
  body: AssistantBody;
  secrets: KeptSecrets | undefined;
}

export type NewVersion = Omit<AssistantVersion, "version">;

export interface StoredAssistant extends AssistantVersion {
  assistant_id: string;
  /** When the assistant was first created (its versions each have their own `created_at`). */
  first_created_at: string;
  updated_at: string;
}

export interface AssistantStore {
  /** Whether what it keeps is written to a database (else it lives in this process only). */
  readonly durable: boolean;
  /** The tenant's assistants, at their latest versions. */
  list(tenant: string): Promise<StoredAssistant[]>;
  get(tenant: string, id: string): Promise<StoredAssistant | undefined>;
  /**
   * Adds an assistant at version 1 unless the tenant has one by that id (`exists`) or has `max`
   * already (`full`) — checked and inserted at once: concurrent requests cannot overshoot.
   */
  create(
    tenant: string,
    id: string,
    first: AssistantVersion,
    max: number,
  ): Promise<"created" | "exists" | "full">;
  /**
   * A new version (one past the newest kept), made the latest, from the latest; versions older
   * than the newest `keep` go. Undefined: no such assistant.
   */
  addVersion(
    tenant: string,
    id: string,
    next: (latest: StoredAssistant) => NewVersion,
    keep: number,
  ): Promise<StoredAssistant | undefined>;
  /** Its versions, newest first. */
  versions(tenant: string, id: string): Promise<AssistantVersion[]>;
  /** Makes a kept version the latest: undefined when the assistant or the version is not kept. */
  setLatest(tenant: string, id: string, version: number): Promise<StoredAssistant | undefined>;
  delete(tenant: string, id: string): Promise<boolean>;
}

/** Saved assistants in this process: they go when it stops, as the memory records do. */
export function memoryAssistants(): AssistantStore {
  interface Kept {
    id: string;
    created: string;
    updated: string;
    latest: number;
    versions: Map<number, AssistantVersion>;
  }
  const tenants = new Map<string, Map<string, Kept>>();
  const of = (tenant: string) => {
    const m = tenants.get(tenant) ?? new Map<string, Kept>();
    tenants.set(tenant, m);
    return m;
  };
  const view = (k: Kept): StoredAssistant => ({
    ...k.versions.get(k.latest)!,
    assistant_id: k.id,
    first_created_at: k.created,
    updated_at: k.updated,
  });
  return {
    durable: false,
    async list(tenant) {
      return [...of(tenant).values()].map(view);
    },
    async get(tenant, id) {
      const k = of(tenant).get(id);
      return k && view(k);
    },
    async create(tenant, id, first, max) {
      const mine = of(tenant);
      if (mine.has(id)) return "exists";
      if (mine.size >= max) return "full";
      mine.set(id, {
        id,
        created: first.created_at,
        updated: first.created_at,
        latest: first.version,
        versions: new Map([[first.version, first]]),
      });
      return "created";
    },
    async addVersion(tenant, id, next, keep) {
      const k = of(tenant).get(id);
      if (!k) return undefined;
      const v = { ...next(view(k)), version: nextVersion([...k.versions.values()]) };
      k.versions.set(v.version, v);
      k.latest = v.version;
      k.updated = v.created_at;
      for (const n of k.versions.keys()) if (n <= v.version - keep) k.versions.delete(n);
      return view(k);
    },
    async versions(tenant, id) {
      const k = of(tenant).get(id);
      return k ? [...k.versions.values()].sort((a, b) => b.version - a.version) : [];
    },
    async setLatest(tenant, id, version) {
      const k = of(tenant).get(id);
      if (!k?.versions.has(version)) return undefined;
      k.latest = version;
      k.updated = new Date().toISOString();
      return view(k);
    },
    async delete(tenant, id) {
      return of(tenant).delete(id);
    },
  };
}

/** The next version's number: one past the newest ever kept. */
export const nextVersion = (versions: readonly { version: number }[]): number =>
  Math.max(0, ...versions.map((v) => v.version)) + 1;
