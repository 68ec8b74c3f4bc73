/**
 * Saved assistants in the records' database (the tables are made with the others, in
 * sql-server-store.ts): `graphspec_server_assistants` holds each tenant's assistants at their
 * latest version, `graphspec_server_assistant_versions` every version kept. A context's secrets
 * are only ever written sealed (saved-assistants.ts refuses them without a records key).
 */
import type {
  AssistantBody,
  AssistantStore,
  AssistantVersion,
  KeptSecrets,
  StoredAssistant,
} from "./assistant-store.js";
import type { Sql } from "./sql-server-store.js";

const sealedText = (s: KeptSecrets | undefined): string | null => {
  if (!s) return null;
  // Guarded in saved-assistants.ts; a plaintext context must never reach a database.
  if (!("sealed" in s)) throw new Error("an assistant's secrets reached the database unsealed");
  return s.sealed;
};

const secretsOf = (v: unknown): KeptSecrets | undefined =>
  typeof v === "string" ? { sealed: v } : undefined;

const versionOf = (row: Record<string, unknown>): AssistantVersion => ({
  version: Number(row.version),
  created_at: String(row.created_at),
  body: JSON.parse(String(row.body)) as AssistantBody,
  secrets: secretsOf(row.secrets),
});

const assistantOf = (row: Record<string, unknown>): StoredAssistant => ({
  ...versionOf(row),
  // The version's own `created_at` is kept with it; the assistant's is the header's.
  created_at: String(row.version_created_at ?? row.created_at),
  assistant_id: String(row.assistant_id),
  first_created_at: String(row.created_at),
  updated_at: String(row.updated_at),
});

const SELECT = `SELECT a.*, v.created_at AS version_created_at
  FROM graphspec_server_assistants a
  LEFT JOIN graphspec_server_assistant_versions v
    ON v.tenant = a.tenant AND v.assistant_id = a.assistant_id AND v.version = a.version`;

export function sqlAssistants(sql: Sql): AssistantStore {
  const store: AssistantStore = {
    durable: true,
    async list(tenant) {
      return (await sql.query(`${SELECT} WHERE a.tenant = $1`, [tenant])).map(assistantOf);
    },
    async get(tenant, id) {
      const [row] = await sql.query(`${SELECT} WHERE a.tenant = $1 AND a.assistant_id = $2`, [
        tenant,
        id,
      ]);
      return row && assistantOf(row);
    },
    async create(tenant, id, first, max) {
      if (await store.get(tenant, id)) return "exists";
      const body = JSON.stringify(first.body);
      const secrets = sealedText(first.secrets);
      // The count and the insert in one statement, alone among replicas (queueStatement).
      const made = await sql.queueStatement(
        `INSERT INTO graphspec_server_assistants
           (tenant, assistant_id, version, created_at, updated_at, body, secrets)
         SELECT $1, $2, CAST($3 AS INTEGER), $4, $4, $5, $6
         WHERE (SELECT count(*) FROM graphspec_server_assistants WHERE tenant = $1) < $7
         ON CONFLICT (tenant, assistant_id) DO NOTHING
         RETURNING assistant_id`,
        [tenant, id, first.version, first.created_at, body, secrets, max],
      );
      if (!made.length) return (await store.get(tenant, id)) ? "exists" : "full";
      await sql.query(
        `INSERT INTO graphspec_server_assistant_versions
           (tenant, assistant_id, version, created_at, body, secrets)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
        [tenant, id, first.version, first.created_at, body, secrets],
      );
      return "created";
    },
    async addVersion(tenant, id, next, keep) {
      const latest = await store.get(tenant, id);
      if (!latest) return undefined;
      const v = next(latest);
      const body = JSON.stringify(v.body);
      const secrets = sealedText(v.secrets);
      // One past the newest kept, numbered and inserted alone among replicas (queueStatement).
      const [row] = await sql.queueStatement(
        `INSERT INTO graphspec_server_assistant_versions
           (tenant, assistant_id, version, created_at, body, secrets)
         SELECT $1, $2, COALESCE(MAX(version), 0) + 1, $3, $4, $5
           FROM graphspec_server_assistant_versions WHERE tenant = $1 AND assistant_id = $2
         RETURNING version`,
        [tenant, id, v.created_at, body, secrets],
      );
      const version = Number(row!.version);
      await sql.query(
        `UPDATE graphspec_server_assistants SET version = $3, updated_at = $4, body = $5, secrets = $6
         WHERE tenant = $1 AND assistant_id = $2 AND version < $3`,
        [tenant, id, version, v.created_at, body, secrets],
      );
      await sql.query(
        `DELETE FROM graphspec_server_assistant_versions
         WHERE tenant = $1 AND assistant_id = $2 AND version <= $3`,
        [tenant, id, version - keep],
      );
      const updated = await store.get(tenant, id);
      // Deleted meanwhile: the version just added goes too.
      if (!updated) await store.delete(tenant, id);
      return updated;
    },
    async versions(tenant, id) {
      return (
        await sql.query(
          `SELECT * FROM graphspec_server_assistant_versions
           WHERE tenant = $1 AND assistant_id = $2 ORDER BY version DESC`,
          [tenant, id],
        )
      ).map(versionOf);
    },
    async setLatest(tenant, id, version) {
      const [row] = await sql.query(
        `SELECT * FROM graphspec_server_assistant_versions
         WHERE tenant = $1 AND assistant_id = $2 AND version = $3`,
        [tenant, id, version],
      );
      if (!row) return undefined;
      await sql.query(
        `UPDATE graphspec_server_assistants SET version = $3, updated_at = $4, body = $5, secrets = $6
         WHERE tenant = $1 AND assistant_id = $2`,
        [tenant, id, version, new Date().toISOString(), row.body, row.secrets ?? null],
      );
      return store.get(tenant, id);
    },
    async delete(tenant, id) {
      const gone = await sql.query(
        "DELETE FROM graphspec_server_assistants WHERE tenant = $1 AND assistant_id = $2 RETURNING assistant_id",
        [tenant, id],
      );
      await sql.query(
        "DELETE FROM graphspec_server_assistant_versions WHERE tenant = $1 AND assistant_id = $2",
        [tenant, id],
      );
      return gone.length > 0;
    },
  };
  return store;
}
